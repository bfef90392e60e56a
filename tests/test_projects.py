# SPDX-License-Identifier: GPL-2.0
"""The bases whose trees no Debian linux-source package has (Linux 6.6 and
5.15, U-Boot, Buildroot, coreboot; crosstool-ng has no real session here:
its make oldconfig is ct-ng's, which needs its own bootstrap): one real
session each of the project's own 'make oldconfig', with its own conf
replaced (scripts/own-oldconfig), on an old config of the kind its users
have:

- U-Boot 2025.01 with the .config that U-Boot 2023.01's own
  'make sandbox_defconfig' makes;
- coreboot 25.09 with the .config that coreboot 4.15's own 'make defconfig'
  makes for the QEMU x86 q35 emulation mainboard;
- Buildroot 2026.08-rc1 with configs/qemu_x86_64_defconfig as its .config
  (about 2,650 NEW questions);
- Linux 6.6.57 and 5.15.85 with Debian's 6.1 amd64 config.

With the stock conf, the session asks its NEW questions and ends well,
and the conf run the way the tree's make runs it (the directory,
arguments and environment scripts/own-oldconfig --record gives) writes the
same .config: the sessions with '<' (once the base has a series) run conf
that way, and must be equivalent to the stock conf fed the surviving
answers.  Where a tree's source is absent (no ../shared/fixtures, or
Debian's archive out of reach) its tests skip, naming it."""

import os
import re
import shutil
import subprocess

import pytest

from conftest import BASES, STOCK_BASES, seeds
import conflib

# Each base's real session, by its line (conftest.DEPTH): the release of
# the tree (scripts/project-tree), how its old config is made, and the
# fewest NEW questions it must ask (what it asks, 2026-12-07: U-Boot 239,
# coreboot 63, Buildroot 2,655, 6.6 277, 5.15 110)
#   ('make', RELEASE, ARGS): the .config of that release's own make ARGS
#   ('copy', FILE): FILE of the tree
#   ('debian', VERSION, FLAVOUR): Debian's config (linux-config-VERSION)
COREBOOT_BOARD = 'CONFIG_VENDOR_EMULATION=y\nCONFIG_BOARD_EMULATION_QEMU_X86_Q35=y\n'
PROJECTS = {
    'u-boot': ('u-boot-2025.01', ('make', 'u-boot-2023.01',
                                  ['sandbox_defconfig']), 150),
    'coreboot': ('coreboot-25.09', ('make', 'coreboot-4.15',
                                    ['defconfig', 'KBUILD_DEFCONFIG={board}']),
                 30),
    'buildroot': ('buildroot-2026.08-rc1',
                  ('copy', 'configs/qemu_x86_64_defconfig'), 2000),
    '6.6': ('6.6.57', ('debian', '6.1', 'amd64_none_amd64'), 150),
    '5.15': ('5.15.85', ('debian', '6.1', 'amd64_none_amd64'), 50),
}
# the variables that name files conf writes: what the tree's make gives
# them names the tree's own files; the runs here write in their directory
FILE_VARS = ('KCONFIG_CONFIG', 'BR2_CONFIG', 'KCONFIG_AUTOCONFIG',
             'KCONFIG_AUTOHEADER', 'KCONFIG_TRISTATE', 'KCONFIG_SPLITCONFIG',
             'KCONFIG_DEPENDENCIES', 'KCONFIG_AUTOADS', 'KCONFIG_RUSTCCFG')


def project_tree(release):
    """The tree of a release (scripts/project-tree), or a skip naming what
    is missing."""
    r = subprocess.run([conflib.script('project-tree'), release],
                       capture_output=True, text=True,
                       env=conflib.shell_env())
    if r.returncode in (3, 4):
        pytest.skip('no tree of %s: %s' % (release, r.stderr.strip()
                                           .splitlines()[-1]))
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


class Project:
    """A tree of another project, its built base, its old config, and how
    its make runs conf (the directory, the arguments, the environment)."""

    def __init__(self, line, path, base, old, record):
        self.line = line
        self.path = path
        self.base = base
        self.old = old
        head, _, env = record.partition(b'\0\0')
        self.cwd, *self.args = [a.decode() for a in head.split(b'\0')]
        self.env = dict(v.decode().split('=', 1)
                        for v in env.split(b'\0') if v)
        self.mode = next(a for a in self.args if a.startswith('--'))
        self.kconfig = self.args[-1]

    def run(self):
        """How conflib runs conf as the make does: in the make's directory
        and environment, with the files it writes in the run's directory
        (the old config its .config, the others under include/)."""
        files = {}
        for k in FILE_VARS:
            if k in self.env or k == 'KCONFIG_CONFIG':
                files[k] = ('.config' if k in ('KCONFIG_CONFIG', 'BR2_CONFIG')
                            else 'include/config/' if k == 'KCONFIG_SPLITCONFIG'
                            else 'include/' + k.lower())
        return dict(srctree=self.env.get('srctree', self.cwd), env=self.env,
                    cwd=self.cwd, files=files)

    def own_session(self, conf, data, tmp_path):
        """The tree's own make oldconfig with conf, from the old config,
        fed data: (the result, its .config)."""
        with open(os.path.join(self.path, '.config'), 'wb') as f:
            f.write(self.old)
        r = subprocess.run([conflib.script('own-oldconfig'), '--conf', conf,
                            self.path], input=data, capture_output=True,
                           timeout=600, env=conflib.shell_env())
        return r, conflib.read_file(os.path.join(self.path, '.config'))


def old_config(how, tree, tmp_path):
    """The old config of a real session (see PROJECTS)."""
    if how[0] == 'copy':
        return conflib.read_file(os.path.join(tree, how[1]))
    if how[0] == 'debian':
        from conftest import debian_config
        return debian_config(how[1], how[2])
    old = project_tree(how[1])
    board = tmp_path / 'board.defconfig'
    board.write_text(COREBOOT_BOARD)
    cfg = os.path.join(old, '.config')
    if os.path.exists(cfg):
        os.unlink(cfg)
    r = subprocess.run(['make', '-s', '-C', old] +
                       [a.format(board=board) for a in how[2]],
                       stdin=subprocess.DEVNULL, capture_output=True,
                       env=conflib.shell_env(), timeout=600)
    assert r.returncode == 0 and os.path.isfile(cfg), r.stderr[-1000:]
    return conflib.read_file(cfg)


@pytest.fixture(scope='session', params=sorted(PROJECTS))
def project(request, tmp_path_factory):
    """Each real session's tree, base, old config and conf's invocation."""
    release, how, _ = PROJECTS[request.param]
    path = project_tree(release)
    base = next((b for b in BASES + STOCK_BASES if b.version == release),
                None)
    if base is None:
        pytest.fail('%s is not built: run make check (or scripts/build '
                    '--project %s --stock-only)' % (release, release))
    tmp = tmp_path_factory.mktemp('project')
    old = old_config(how, path, tmp)
    record = tmp / 'record'
    subprocess.run([conflib.script('own-oldconfig'), '--record', str(record),
                    path], check=True, capture_output=True,
                   env=conflib.shell_env())
    return Project(request.param, path, base, old, record.read_bytes())


@pytest.mark.shallow
def test_own_oldconfig_with_stock_conf(project, tmp_path):
    """The tree's own make oldconfig, with its conf replaced by the stock
    conf of the base built here: the NEW questions asked, each answered
    with Enter, a .config written, exit status 0.  Run as the make runs it,
    the stock conf writes the same .config for the same answers."""
    want = PROJECTS[project.line][2]
    data = b'\n' * 20000
    r, config = project.own_session(project.base.stock, data, tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    asked = r.stdout.count(b'(NEW)')
    assert asked >= want, (asked, r.stdout[-2000:])
    assert config and config != project.old
    how = project.run()
    direct = conflib.run_conf(project.base.stock, project.mode,
                              project.kconfig, how['srctree'], tmp_path,
                              project.old, data, how['env'], timeout=300,
                              cwd=how['cwd'], files=how['files'])
    assert direct.returncode == 0, direct.stderr[-2000:]
    assert direct.stdout.count(b'(NEW)') == asked
    assert direct.config == config


@pytest.mark.shallow
def test_real_session_with_back(project, tmp_path):
    """One seeded session with runs of '<' on the patched conf, run as the
    tree's make runs it: the same questions and .config as the stock conf
    fed the surviving answers.  Then the same input through the tree's own
    make oldconfig: the patched conf given every line of the session, '<'
    included, and the stock conf given the surviving answers write the
    same .config."""
    if not project.base.has_series:
        pytest.skip('patches/%s has no patches yet' % project.base.series)
    how = project.run()
    backs = 0
    for seed in seeds(1, 10):
        t, problems = conflib.check_equivalence(
            project.base.patched, project.base.stock, project.mode,
            project.kconfig, how['srctree'], tmp_path, project.old,
            how['env'], seed, p_back=0.05, max_backs=60, timeout=600,
            cwd=how['cwd'], files=how['files'])
        assert not problems, 'seed %d: %s' % (seed, problems)
        assert t.backs and len(t.survived) >= PROJECTS[project.line][2]
        backs += t.backs
    # a session of coreboot's 63 questions may go back twice only
    assert backs >= 3 * len(seeds(1, 10))
    typed = ''.join(line + '\n' for line in t.sent).encode()
    kept = ''.join(a + '\n' for _, a in t.survived).encode()
    mine, config = project.own_session(project.base.patched, typed, tmp_path)
    stock, want = project.own_session(project.base.stock, kept, tmp_path)
    assert b'* Back to the previous question' in mine.stdout
    assert (mine.returncode, config) == (stock.returncode, want)
    assert config == t.result.config


def readme_commands():
    """README.md's command of each tree of 'Other kconfig trees', by the
    folder of its series: its patching part, up to the tree's own command."""
    with open(os.path.join(conflib.TOP, 'README.md')) as f:
        text = f.read()
    section = text.split('\n## Other kconfig trees')[1].split('\n## ')[0]
    found = {}
    for cmd in re.findall(r'^\| [^|]+ \| `(git am .*?)` \|', section, re.M):
        cmd = cmd.replace('\\|', '|')
        series = re.search(r'kconfig-back/patches/([\w.-]+) ', cmd).group(1)
        found[series] = cmd.split(' && ')[0]
    return found


@pytest.mark.shallow
@pytest.mark.parametrize('series', ['6.6', '5.15', 'u-boot', 'buildroot',
                                    'coreboot', 'crosstool-ng'])
def test_readme_command_of_the_tree(series, tmp_path):
    """README.md's command for the tree, run as written (the clone for
    /path/to/kconfig-back) in a git checkout of the tree's kconfig sources
    as the project has them: the series applies and gives the patched
    sources built here."""
    cmd = readme_commands().get(series)
    assert cmd, 'README.md has no command for patches/%s' % series
    base = next((b for b in BASES if b.series == series), None)
    if base is None:
        pytest.skip('no built base of patches/%s' % series)
    tree = tmp_path / 'tree'
    shutil.copytree(os.path.join(base.path, 'pristine'), tree)
    env = conflib.shell_env(GIT_AUTHOR_NAME='A', GIT_AUTHOR_EMAIL='a@b.c',
                            GIT_COMMITTER_NAME='A', GIT_COMMITTER_EMAIL='a@b.c')
    for git in (['init', '-q'], ['add', '-f', '-A'],
                ['commit', '-q', '-m', 'base']):
        subprocess.run(['git', *git], cwd=tree, env=env, check=True)
    r = subprocess.run(['bash', '-c', cmd.replace('/path/to/kconfig-back',
                                                  conflib.TOP)],
                       cwd=tree, env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    kdir = base.kconfig_dir
    for name in sorted(os.listdir(tree / kdir)):
        if os.path.isfile(tree / kdir / name):
            with open(tree / kdir / name, 'rb') as a, \
                    open(os.path.join(base.path, 'patched', kdir, name),
                         'rb') as b:
                assert a.read() == b.read(), name
