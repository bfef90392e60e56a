# SPDX-License-Identifier: GPL-2.0
"""The project's scripts: shellcheck-clean, 'set -eu', and a --help that
says what they do."""

import glob
import os
import re
import subprocess

import pytest

import conflib

SCRIPTS = sorted(p for p in glob.glob(os.path.join(conflib.TOP, 'scripts', '*'))
                 if not p.endswith('.sh')) + [os.path.join(conflib.TOP, '.ci', 'run')]


def test_shellcheck():
    r = subprocess.run(['shellcheck', '-x', *SCRIPTS,
                        os.path.join(conflib.TOP, 'scripts', 'lib.sh')],
                       cwd=conflib.TOP, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout


def test_strict_mode():
    for path in SCRIPTS:
        with open(path) as f:
            text = f.read()
        assert text.startswith('#!/bin/bash\n'), path
        assert '\nset -eu\n' in text, path


def test_nothing_but_lib_sh_is_sourced():
    """The scripts source scripts/lib.sh and nothing else: a build's
    base.env is data (read_env), whose values may hold any character
    (CHECKED=... (19 of the series' cases)), never shell."""
    for path in SCRIPTS + [os.path.join(conflib.TOP, 'scripts', 'lib.sh')]:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                m = re.match(r'\s*(?:\.|source)\s+(.+?)\s*$', line)
                if m:
                    assert m.group(1) == '"$(dirname "$0")/lib.sh"', (
                        '%s:%d: %s' % (path, n, line))


def test_help():
    for path in SCRIPTS:
        r = subprocess.run([path, '--help'], capture_output=True, text=True,
                           timeout=60)
        assert r.returncode == 0, path
        assert r.stdout.startswith('Usage: '), path
        assert len(r.stdout.splitlines()) >= 3, path


def test_install_deps_prints_the_command(tmp_path):
    """Without root (or apt-get), install-deps prints the exact command."""
    fake = tmp_path / 'bin'
    fake.mkdir()
    (fake / 'id').write_text('#!/bin/sh\necho 1000\n')
    (fake / 'id').chmod(0o755)
    env = dict(os.environ, PATH='%s:/usr/bin:/bin' % fake)
    r = subprocess.run([os.path.join(conflib.TOP, 'scripts', 'install-deps'),
                        '--print'], capture_output=True, text=True, env=env)
    assert r.returncode == 0
    # everything is installed here: nothing to print
    assert r.stdout == ''


def path_without(tmp_path, missing, fakes):
    """A PATH of one folder: every command of /usr/bin and /bin but those
    named missing, and the fakes (name: shell script) in their place."""
    fake = tmp_path / 'bin'
    fake.mkdir()
    for d in ('/usr/bin', '/bin'):
        for name in os.listdir(d):
            if name not in missing and not (fake / name).exists():
                os.symlink(os.path.join(d, name), fake / name)
    for name, text in fakes.items():
        if (fake / name).is_symlink():
            (fake / name).unlink()
        (fake / name).write_text(text)
        (fake / name).chmod(0o755)
    return str(fake)


LOCKED = ('E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by '
          'process 4242 (apt-get)\n'
          'N: Be aware that removing the lock file is not a solution and may '
          'break your system.\n'
          'E: Unable to acquire the dpkg frontend lock '
          '(/var/lib/dpkg/lock-frontend), is another process using it?\n')


@pytest.mark.parametrize('held', ['a while', 'too long'])
def test_install_deps_waits_for_the_apt_lock(tmp_path, held):
    """As root, with a package missing (flex here) while another apt-get
    holds dpkg's lock: install-deps says once that it waits for that lock
    and who holds it, and tries again until apt-get gets it; if it is
    still held at the end of the wait (APT_LOCK_WAIT seconds), it stops on
    one line naming the lock, its holder and what to do."""
    calls = tmp_path / 'calls'
    apt = ('#!/bin/sh\necho "$*" >> %s\n'
           'if [ "%s" = "too long" ] || [ $(wc -l < %s) -le 2 ]; then\n'
           "  printf '%s' >&2; exit 100\nfi\necho done\n"
           % (calls, held, calls, LOCKED))
    path = path_without(tmp_path, ('flex',), {
        'id': '#!/bin/sh\necho 0\n', 'apt-get': apt})
    env = dict(os.environ, PATH=path, APT_LOCK_WAIT='4')
    r = subprocess.run([os.path.join(conflib.TOP, 'scripts', 'install-deps')],
                       capture_output=True, text=True, env=env,
                       stdin=subprocess.DEVNULL)
    tried = calls.read_text().splitlines()
    waiting = ("install-deps: waiting for apt's lock /var/lib/dpkg/"
               'lock-frontend, held by process 4242 (apt-get): up to 4 s\n')
    assert r.stderr.count('waiting') == 1, r.stderr
    if held == 'a while':
        assert r.returncode == 0, r.stderr
        assert r.stderr.startswith(waiting), r.stderr
        assert 'Could not get lock' not in r.stderr
        assert len(tried) >= 3 and tried[-1] == 'install -y -q flex'
        assert r.stdout == 'done\n'
    else:
        assert r.returncode == 1
        assert r.stderr == waiting + (
            "install-deps: error: apt's lock /var/lib/dpkg/lock-frontend is "
            'still held by process 4242 (apt-get) after 6 s: another '
            'apt-get, dpkg or unattended-upgrades is at work; let it finish '
            '(or stop it), then run install-deps again\n')
        assert len(tried) == 3


@pytest.mark.parametrize('name', ['7.3', '7.2', '5.10'])
def test_install_deps_counts_the_downloads(tmp_path, name):
    """linux-source-7.3, -7.2 and -5.10 are not in Debian 12: --check
    reports them missing until they are downloaded, with the command that
    downloads them, and --print prints that command; --test counts 7.3 (a
    base make check tests)."""
    deps = os.path.join(conflib.TOP, 'scripts', 'install-deps')
    env = dict(os.environ, BUILD_ROOT=str(tmp_path / 'b'))
    if os.path.exists('/usr/src/linux-source-%s.tar.xz' % name):
        pytest.skip('linux-source-%s is installed here' % name)
    checks = [['--base', name, '--check']]
    if name == '7.3':
        checks.append(['--test', '--check'])
    for args in checks:
        r = subprocess.run([deps, *args], capture_output=True, text=True,
                           env=env)
        assert r.returncode == 1
        assert ('missing: linux-source-%s' % name) in r.stderr
        assert 'scripts/install-deps --base %s)' % name in r.stderr
    r = subprocess.run([deps, '--base', name, '--print'],
                       capture_output=True, text=True, env=env)
    assert r.returncode == 0
    assert r.stdout.splitlines()[-1] == 'scripts/install-deps --base %s' % name
    # the default base is Debian 12's own: nothing to download
    r = subprocess.run([deps, '--check'], capture_output=True, text=True,
                       env=env)
    assert 'linux-source-%s' % name not in r.stderr
    assert not os.path.exists(tmp_path / 'b' / 'debian' / 'root')


def test_install_deps_refuses_what_is_no_base(tmp_path):
    deps = os.path.join(conflib.TOP, 'scripts', 'install-deps')
    env = dict(os.environ, BUILD_ROOT=str(tmp_path / 'b'))
    for args in (['--base', '5.4'], ['--base', 'mainline'],
                 ['--list-releases', '4.19']):
        r = subprocess.run([deps, *args], capture_output=True, text=True,
                           env=env)
        assert r.returncode == 1
        assert r.stderr.count('\n') == 1, r.stderr
        assert 'BASE= is one of 7.3, 7.2, 6.12, 6.1, 5.10' in r.stderr
    for name, says in (('x', 'give a kernel release such as 6.12.115'),
                       ('6', 'give a kernel release such as 6.12.115'),
                       ('6.12.1x', 'give a kernel release such as 6.12.115'),
                       ('6.12.115 ', 'give a kernel release such as'),
                       ('4.19.1', '4.19 is not a base (one of 7.3, 7.2, '
                                  '6.12, 6.1, 5.10)')):
        r = subprocess.run([deps, '--release', name], capture_output=True,
                           text=True, env=env)
        assert r.returncode == 1
        assert r.stderr == 'install-deps: error: --release %s: %s%s\n' % (
            name, says, r.stderr.split(says, 1)[1][:-1]), r.stderr
    assert not os.path.exists(tmp_path / 'b')


def deps_run(*args):
    r = subprocess.run([os.path.join(conflib.TOP, 'scripts', 'install-deps'),
                        *args], capture_output=True, text=True, timeout=600)
    if r.returncode == 3:
        pytest.skip("Debian's archive cannot be reached: " + r.stderr)
    return r


@pytest.mark.skipif(conflib.BUILD != os.path.join(conflib.TOP, 'build'),
                    reason='BUILD_ROOT is set')
def test_install_deps_fetches_a_release(tmp_path):
    """--list-releases names the releases of Debian's archive; --release
    gets exactly one, its kconfig sources only, into build/releases (kept
    there: the cache make check-releases uses); a release the archive does
    not have is named with those it has.  Skipped only when the archive
    cannot be reached."""
    base = next((b for b in conflib.built_bases()
                 if b.env.get('DEBIAN') == '6.12'), None)
    if base is None:
        pytest.skip("Debian's 6.12 is not built")
    r = deps_run('--list-releases', '6.12')
    assert r.returncode == 0, r.stderr
    rows = [line.split() for line in r.stdout.splitlines()]
    assert rows and all(len(row) == 3 and row[0].startswith('6.12.') and
                        row[1].startswith(row[0] + '-') for row in rows), rows
    if base.version not in [row[0] for row in rows]:
        pytest.skip("Debian's archive has no %s any more" % base.version)
    r = deps_run('--release', base.version)
    assert r.returncode == 0, r.stderr
    src = r.stdout.strip()
    assert src == os.path.join(conflib.BUILD, 'releases', base.version, 'src')
    assert sorted(os.listdir(src)) == ['Documentation', 'MAINTAINERS',
                                       'Makefile', 'scripts']
    assert os.listdir(os.path.join(src, 'Documentation')) == ['kbuild']
    assert os.path.isfile(os.path.join(src, 'scripts', 'kconfig', 'conf.c'))
    with open(os.path.join(conflib.BUILD, 'releases', base.version,
                           'debian')) as f:
        version, suite = f.read().split()
    assert [base.version, version, suite] in rows
    # again: the same, from the cache
    again = deps_run('--release', base.version)
    assert again.returncode == 0 and again.stdout == r.stdout
    assert again.stderr == ''
    r = deps_run('--release', '6.12.9999')
    assert r.returncode == 1
    assert r.stderr.startswith("install-deps: error: Debian's archive has no "
                               'linux-source-6.12 6.12.9999 (it has: ')
    assert base.version in re.split(r'[ ;]', r.stderr.split('it has: ')[1])
    # and the build takes it by its name
    r = subprocess.run([os.path.join(conflib.TOP, 'scripts', 'build'),
                        '--debian-release', base.version, '--prepare-only'],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    with open(os.path.join(r.stdout.strip(), 'base.env')) as f:
        env = dict(line.rstrip('\n').split('=', 1) for line in f)
    assert env['RELEASE'] == env['VERSION'] == base.version
    assert env['SERIES'] == base.series


def test_oldconfig_refuses_an_unknown_mode(tmp_path):
    """An unknown --mode is refused before conf runs (conf would take it
    for --oldaskconfig and ask every question), listing the modes."""
    tree = tmp_path / 'linux'
    tree.mkdir()
    (tree / 'Makefile').write_text('all:\n')
    (tree / 'Kconfig').write_text('config A\n\tbool "a"\n')
    r = subprocess.run([os.path.join(conflib.TOP, 'scripts', 'oldconfig'),
                        '--mode', 'bogus', str(tree)], capture_output=True,
                       text=True, stdin=subprocess.DEVNULL)
    assert r.returncode != 0
    assert r.stderr.count('\n') == 1
    assert 'unknown --mode bogus: one of oldconfig, config, ' in r.stderr
    assert r.stdout == ''
    assert not (tree / '.config').exists()


def test_make_help_names_oldconfig_and_journal():
    r = subprocess.run(['make', '-s', 'help'], cwd=conflib.TOP,
                       capture_output=True, text=True,
                       env=conflib.shell_env())
    assert r.returncode == 0
    assert 'scripts/oldconfig /path/to/linux' in r.stdout
    assert 'KCONFIG_JOURNAL=FILE' in r.stdout
    assert "'<'" in r.stdout


def test_oldconfig_help_names_back_and_journal():
    r = subprocess.run([conflib.script('oldconfig'), '--help'],
                       capture_output=True, text=True)
    assert r.returncode == 0
    assert "a line that is just '<' goes back" in r.stdout
    assert 'KCONFIG_JOURNAL=FILE, in the environment or as a VAR=VALUE ' \
        'argument, is\npassed through to conf' in r.stdout


@pytest.mark.parametrize('name', ['oldconfig', 'demo'])
def test_unknown_option_is_named(name):
    """An unknown option is named, then the usage follows."""
    r = subprocess.run([conflib.script(name), '-x', 'tree'],
                       capture_output=True, text=True,
                       stdin=subprocess.DEVNULL)
    assert r.returncode == 2
    lines = r.stderr.splitlines()
    assert lines[0] == '%s: error: unknown %s -x' % (
        name, 'option' if name == 'oldconfig' else 'argument')
    assert lines[1].startswith('Usage: %s ' % name)
    assert r.stdout == ''


def test_oldconfig_names_what_is_missing(tmp_path):
    """A tree that does not exist is said not to exist; a file is not a
    directory; a directory without Makefile or Kconfig is not a tree."""
    oldconfig = conflib.script('oldconfig')
    missing = tmp_path / 'nonexistent'
    a_file = tmp_path / 'a-file'
    a_file.write_text('')
    for path, says in ((missing, 'does not exist'),
                       (a_file, 'is not a directory (give the top of a '
                        'kernel tree)'),
                       (tmp_path, 'is not a kernel tree (no Makefile or '
                        'Kconfig)')):
        r = subprocess.run([oldconfig, str(path)], capture_output=True,
                           text=True, stdin=subprocess.DEVNULL)
        assert r.returncode == 1
        assert r.stderr == 'oldconfig: error: %s %s\n' % (path, says)
        assert r.stdout == ''


@pytest.mark.shallow
def test_demo_says_where_the_config_is(series, demo, tmp_path):
    """On pipes the demo's stdout is conf's own, byte for byte (no line
    about '<'), and a last line on stderr names the .config written.  On
    every base (a second or less): make demo BASE= takes each."""
    data = b'myhost\n<\n\n'
    r = subprocess.run([conflib.script('demo'), *series.source_args],
                       input=data, capture_output=True, cwd=conflib.TOP,
                       env=conflib.shell_env())
    assert r.returncode == 0
    kconfig, srctree, old = demo
    # the demo gives conf the prefix of its .config (Buildroot's conf has
    # none, crosstool-ng's CT_)
    conf = conflib.run_conf(series.patched, '--oldconfig', kconfig, srctree,
                            tmp_path, old, data,
                            dict(os.environ, CONFIG_='CONFIG_'))
    assert r.stdout == conf.stdout
    # its old .config read: LOCALVERSION is not new
    assert b'(LOCALVERSION) [] \n' in r.stdout
    assert r.stdout.endswith(b'# configuration written to .config\n#\n')
    assert r.stderr == conf.stderr + (
        'demo: configuration written to %s\n'
        % conflib.shown_demo_config()).encode()
    with open(os.path.join(conflib.BUILD, 'demo', '.config'), 'rb') as f:
        assert f.read() == conf.config


def test_readme_demo_piped(series, demo, tmp_path):
    """README.md's piped 'make demo', run as it stands at the top of the
    project: it builds the default base (Debian's 6.12) if needed and runs
    its patched conf, whose bytes are all of stdout, and the last line on
    stderr is the one README.md quotes."""
    if series.env.get('DEBIAN') != '6.12':
        pytest.skip("make demo runs the default base, Debian's 6.12")
    with open(os.path.join(conflib.TOP, 'README.md')) as f:
        readme = f.read()
    cmds = [line.strip() for line in readme.splitlines()
            if line.startswith('    ') and '| make demo' in line]
    assert len(cmds) == 1, cmds
    data = subprocess.run(['bash', '-c', cmds[0].split('|')[0]],
                          capture_output=True, check=True).stdout
    assert b'\n<\n' in data
    r = subprocess.run(['bash', '-e', '-o', 'pipefail', '-c', cmds[0]],
                       capture_output=True, cwd=conflib.TOP,
                       env=conflib.shell_env())
    assert r.returncode == 0, r.stderr
    kconfig, srctree, old = demo
    conf = conflib.run_conf(series.patched, '--oldconfig', kconfig, srctree,
                            tmp_path, old, data)
    assert r.stdout == conf.stdout
    assert b'* Back to the previous question\n' in r.stdout
    last = r.stderr.decode().splitlines()[-1]
    assert last == 'demo: configuration written to %s' % \
        conflib.shown_demo_config()
    if conflib.BUILD == os.path.join(conflib.TOP, 'build'):
        assert '`%s`' % last in readme


def test_demo_journal_is_relative_to_the_caller(series, tmp_path):
    """KCONFIG_JOURNAL=rel.config for the demo lands where it was typed,
    not in build/demo where conf runs."""
    if not series.has_journal:
        pytest.skip('patches/%s has no journal' % series.series)
    name = 'rel-%s.config' % tmp_path.name
    in_run = os.path.join(conflib.BUILD, 'demo', name)
    try:
        r = subprocess.run([conflib.script('demo'), *series.source_args],
                           input=b'myhost\n', capture_output=True,
                           cwd=tmp_path,
                           env=conflib.shell_env(KCONFIG_JOURNAL=name))
        assert r.returncode == 0
        assert not os.path.exists(in_run)
        assert 'CONFIG_DEFAULT_HOSTNAME="myhost"\n' in \
            (tmp_path / name).read_text()
    finally:
        if os.path.exists(in_run):
            os.unlink(in_run)
