# SPDX-License-Identifier: GPL-2.0
"""The routes into one's own tree: every command of build/dist/README,
run literally on a pristine tree of each built base, gives a tree whose
own 'make oldconfig' has '<'; so does every route of README.md's "Use it
in your kernel tree" (git am in a checkout and in a tarball tree, quilt,
patch), run literally on a machine where git has no identity yet after
the README's identity line; the drop-in command of README.md copies
exactly the files make dist wrote; the tarball holds the series as it is;
and 'make dist' works with only the default base built."""

import filecmp
import os
import random
import re
import shutil
import subprocess
import tarfile

import pytest

import conflib

DIST = os.path.join(conflib.TOP, 'scripts', 'dist')


@pytest.fixture(scope='module')
def dist(tmp_path_factory):
    """build/dist as 'make dist' writes it, in a directory of the tests."""
    out = tmp_path_factory.mktemp('dist') / 'dist'
    subprocess.run([DIST, '--out', str(out)], check=True, capture_output=True)
    return out


def shell_env():
    """The environment of a user's shell: not a sub-make of 'make check',
    git with an identity (HOME stays: rustc, which the kernel's Kconfig
    asks for its version, finds its toolchain there)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ('MAKEFLAGS', 'MAKELEVEL', 'MFLAGS', 'MAKEOVERRIDES')}
    env.update(GIT_AUTHOR_NAME='t', GIT_AUTHOR_EMAIL='t@t',
               GIT_COMMITTER_NAME='t', GIT_COMMITTER_EMAIL='t@t')
    return env


def series_files(base):
    """Every patch file of the base's series, as paths under
    patches/<series>/, cover letters included."""
    top = os.path.join(conflib.TOP, 'patches', base.series)
    return sorted(os.path.relpath(os.path.join(d, f), top)
                  for d, _, files in os.walk(top)
                  for f in files if f.endswith('.patch'))


def test_tarball_is_the_series(series, dist, tmp_path):
    with tarfile.open(dist / ('kconfig-back-%s.tar.gz' % series.series)) as t:
        t.extractall(tmp_path / 'x')
    got = tmp_path / 'x' / ('kconfig-back-%s' % series.series)
    names = sorted(os.path.relpath(os.path.join(d, f), got)
                   for d, _, files in os.walk(got) for f in files)
    assert names == series_files(series)
    for name in names:
        assert filecmp.cmp(got / name, os.path.join(
            conflib.TOP, 'patches', series.series, name), shallow=False)


def readme_blocks(text):
    """The command blocks of a README: runs of lines indented by four
    spaces (the lines of a loop inside are indented further)."""
    blocks, cur = [], []
    for line in text.splitlines():
        if line.startswith('    ') and line.strip():
            cur.append(line[4:])
        elif cur:
            blocks.append('\n'.join(cur) + '\n')
            cur = []
    if cur:
        blocks.append('\n'.join(cur) + '\n')
    return blocks


def session_input():
    keys = ['y', '<', 'n', '', '<', '<', '']
    rng = random.Random(3)
    keys += [rng.choice(['', '', 'y', 'n']) for _ in range(700)]
    return ''.join(k + '\n' for k in keys).encode()


def kconfig_tree(real, path):
    """A pristine tree with what 'make oldconfig' reads of the real tree:
    the top Makefile, the architectures' Makefiles, scripts/ and every
    Kconfig file (measured with strace on the three trees: the same output
    and .config as the whole tree), and whatever the series changes.
    Copied, not linked, so that nothing can write through to the tree."""
    paths = set()
    for p in real.base.patches:
        with open(p, errors='replace') as f:
            paths.update(m.group(1) for m in
                         re.finditer(r'^diff --git a/(\S+) ', f.read(), re.M))
    for d, _, files in os.walk(real.path):
        for name in files:
            rel = os.path.relpath(os.path.join(d, name), real.path)
            if not (name.startswith('Kconfig') or rel == 'Makefile' or
                    rel.startswith('scripts/') or rel in paths or
                    (re.match(r'arch/[^/]+/Makefile', rel))):
                continue
            os.makedirs(path / os.path.dirname(rel), exist_ok=True)
            shutil.copy2(os.path.join(d, name), path / rel,
                         follow_symlinks=False)


def patched_config(real, old, data, tmp_path):
    """The .config the project's patched conf writes in the tree for that
    input, run with the environment the tree's make gives conf."""
    ref = tmp_path / 'ref'
    kconfig_tree(real, ref)
    (ref / '.config').write_bytes(old)
    r = subprocess.run([real.base.patched, '--oldconfig', 'Kconfig'],
                       input=data, env=real.env, cwd=ref, capture_output=True)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.count(b'* Back to the previous question') == 3
    want = (ref / '.config').read_bytes()
    shutil.rmtree(ref)
    return want


def test_dist_readme_literally(real, dist, tmp_path):
    """Each block of commands of build/dist/README, with its placeholders
    filled in, run as it stands on its own pristine copy of the tree, ends
    with the tree's own 'make oldconfig' taking '<': three times back, and
    the .config of the project's patched conf for the same input."""
    base = real.base
    readme = (dist / 'README').read_text()
    assert 'kconfig-back-%s/' % base.version in readme
    blocks = readme_blocks(readme)
    assert len(blocks) >= 3
    env = shell_env()
    data = session_input()
    old = real.old_config()

    want = patched_config(real, old, data, tmp_path)

    for i, block in enumerate(blocks):
        # every route ends with the tree's own make oldconfig
        assert re.search(r'^make .*oldconfig$', block.rstrip().splitlines()[-1]), block
        tree = tmp_path / ('linux%d' % i)
        kconfig_tree(real, tree)
        (tree / '.config').write_bytes(old)
        out = tmp_path / ('dist%d' % i)
        shutil.copytree(dist, out)
        script = block.replace('/path/to/dist', str(out))
        script = script.replace('/path/to/linux', str(tree))
        script = re.sub(r'\bVERSION\b', base.version, script)
        script = re.sub(r'\bSERIES\b', base.series, script)
        assert '/path/to' not in script
        r = subprocess.run(['bash', '-e', '-c', script], input=data,
                           cwd=tmp_path, env=env, capture_output=True)
        assert r.returncode == 0, (script, r.stderr[-3000:])
        assert r.stdout.count(b'* Back to the previous question') == 3, script
        assert r.stdout.count(b'* No earlier answer to go back to') == 0
        assert (tree / '.config').read_bytes() == want, script
        shutil.rmtree(tree)
        shutil.rmtree(out)


def readme_section(title):
    """The text of README.md's section '## title', up to the next one."""
    with open(os.path.join(conflib.TOP, 'README.md')) as f:
        text = f.read()
    start = text.index('\n## %s\n' % title)
    end = text.find('\n## ', start + 1)
    return text[start:] if end < 0 else text[start:end]


def no_identity_env(tmp_path):
    """A shell on a machine where git has no identity yet: no name or
    address in the environment, a global config of its own (HOME stays,
    see shell_env()), no system one, and none guessed from the host."""
    env = {k: v for k, v in shell_env().items()
           if not k.startswith('GIT_') and k != 'EMAIL'}
    env.update(GIT_CONFIG_GLOBAL=str(tmp_path / 'gitconfig'),
               GIT_CONFIG_NOSYSTEM='1', GIT_CONFIG_COUNT='1',
               GIT_CONFIG_KEY_0='user.useConfigOnly',
               GIT_CONFIG_VALUE_0='true')
    return env


def test_readme_routes_literally(real612, tmp_path):
    """Each route of README.md's "Use it in your kernel tree" that ends
    with the tree's own 'make oldconfig' (git am in a git checkout and in
    a tree unpacked from a tarball, quilt in a Debian source package,
    patch without git), run as it stands on its own pristine copy of
    Debian's 6.12 tree (the series of the tree's line in place of the one
    named), on a machine whose git has no identity after the README's
    identity line: three times back, and the .config of the project's
    patched conf.  Without the identity line, the tarball route fails."""
    real = real612
    section = readme_section('Use it in your kernel tree')
    blocks = readme_blocks(section)
    identity = [b for b in blocks if 'git config --global user.' in b]
    routes = [b for b in blocks
              if b.rstrip().splitlines()[-1] == 'make oldconfig']
    assert len(identity) == 1 and len(routes) == 4, blocks
    assert [('git init' in b, 'git am' in b, 'quilt' in b, 'patch -p1' in b)
            for b in routes] == [(False, True, False, False),
                                 (True, True, False, False),
                                 (False, False, True, False),
                                 (False, False, False, True)]
    env = no_identity_env(tmp_path)
    data = session_input()
    old = real.old_config()
    want = patched_config(real, old, data, tmp_path)

    def literally(block, tree):
        script = block.replace('/path/to/kconfig-back', conflib.TOP)
        script = script.replace('/path/to/linux', str(tree))
        script = re.sub(r'\bpatches/(mainline|6\.12|6\.1|5\.10)\b',
                        'patches/' + real.base.series, script)
        assert '/path/to' not in script
        return subprocess.run(['bash', '-e', '-c', script], input=data,
                              cwd=tmp_path, env=env, capture_output=True)

    # a new machine: the tarball route stops at its first commit
    tree = tmp_path / 'linux'
    kconfig_tree(real, tree)
    r = literally(routes[1], tree)
    assert r.returncode != 0
    assert b'Please tell me who you are' in r.stderr, r.stderr[-2000:]
    shutil.rmtree(tree)
    r = literally(identity[0], tmp_path)
    assert r.returncode == 0, r.stderr
    for i, block in enumerate(routes):
        tree = tmp_path / ('linux%d' % i)
        kconfig_tree(real, tree)
        (tree / '.config').write_bytes(old)
        if 'git am' in block and 'git init' not in block:
            # a git checkout of the tree
            for cmd in (['git', 'init', '-q'], ['git', 'add', '-f', '-A'],
                        ['git', 'commit', '-q', '-m', 'linux']):
                subprocess.run(cmd, cwd=tree, env=env, check=True,
                               capture_output=True)
        r = literally(block, tree)
        assert r.returncode == 0, (block, r.stderr[-3000:])
        assert r.stdout.count(b'* Back to the previous question') == 3, block
        assert r.stdout.count(b'* No earlier answer to go back to') == 0
        assert (tree / '.config').read_bytes() == want, block
        shutil.rmtree(tree)


def readme_drop_in_command():
    """The drop-in command of README.md ('Use it in your kernel tree')."""
    with open(os.path.join(conflib.TOP, 'README.md')) as f:
        lines = [l.strip() for l in f
                 if l.strip().startswith('cp build/dist/kconfig-back-')]
    assert len(lines) == 1, lines
    return lines[0]


def test_readme_drop_in(series, dist, demo, tmp_path):
    """README.md's drop-in command, run on a copy of the pristine kconfig
    sources, copies exactly the files make dist wrote, and they make the
    tree's kconfig sources those of the patched build: its conf goes back
    as the patched conf does."""
    tree = tmp_path / 'linux'
    shutil.copytree(series.pristine, tree, symlinks=True)
    cmd = readme_drop_in_command()
    cmd = cmd.replace('build/dist/', str(dist) + '/')
    cmd = cmd.replace('<version>', series.version)
    cmd = cmd.replace('/path/to/linux', str(tree))
    assert '<' not in cmd and '/path/to' not in cmd, cmd
    before = {f: (tree / 'scripts' / 'kconfig' / f).read_bytes()
              for f in os.listdir(tree / 'scripts' / 'kconfig')
              if (tree / 'scripts' / 'kconfig' / f).is_file()}
    subprocess.run(['bash', '-e', '-c', cmd], cwd=conflib.TOP, check=True)
    kdir = tree / 'scripts' / 'kconfig'
    changed = sorted(f for f in os.listdir(kdir) if (kdir / f).is_file() and
                     before.get(f) != (kdir / f).read_bytes())
    drop_in = sorted(os.listdir(dist / ('kconfig-back-%s' % series.version)))
    assert changed == drop_in
    # every kconfig source is now the patched one
    patched = os.path.join(series.path, 'patched', 'scripts', 'kconfig')
    for f in before:
        assert filecmp.cmp(kdir / f, os.path.join(patched, f),
                           shallow=False), f
    subprocess.run(['make', '-s', '-C', str(tree), '-f',
                    os.path.join(conflib.TOP, 'kconfig', 'conf.mk')],
                   check=True, capture_output=True)
    kconfig, _, old = demo
    data = b'myhost\n<\n\n\n<\n'
    runs = [conflib.run_conf(conf, '--oldconfig', kconfig, conflib.DEMO,
                             str(tmp_path), old, data)
            for conf in (str(kdir / 'conf'), series.patched)]
    assert runs[0].stdout.count(b'* Back to the previous question') == 2
    assert not runs[0].differences(runs[1])


def test_make_dist_with_the_default_base_only(tmp_path):
    """On a fresh clone, 'make' builds the default base saying what it
    does and where conf is, and 'make dist' then writes that base (it
    needs no other)."""
    broot = tmp_path / 'build'
    env = dict(shell_env(), BUILD_ROOT=str(broot))
    r = subprocess.run(['make', '-C', conflib.TOP, '--no-print-directory'],
                       env=env, capture_output=True, text=True,
                       stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr
    dirs = [d for d in os.listdir(broot) if d.startswith('6.12.')]
    assert len(dirs) == 1
    conf = broot / dirs[0] / 'patched' / 'scripts' / 'kconfig' / 'conf'
    assert 'extracting' in r.stderr and 'compiling' in r.stderr
    assert r.stderr.rstrip().splitlines()[-1].startswith('build: built ' + str(conf))
    r = subprocess.run(['make', '-C', conflib.TOP, '--no-print-directory',
                        'dist'], env=env, capture_output=True, text=True,
                       stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr
    assert sorted(os.listdir(broot / 'dist')) == [
        'README', 'kconfig-back-%s' % dirs[0], 'kconfig-back-6.12.tar.gz']
