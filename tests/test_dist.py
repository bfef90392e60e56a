# SPDX-License-Identifier: GPL-2.0
"""The routes into one's own tree: every command of build/dist/README,
run literally on a pristine tree of each built base, gives a tree whose
own 'make oldconfig' has '<'; so does every route of README.md's "Use it
in your kernel tree" (git am in a checkout and in a tarball tree, quilt,
patch), run literally on a machine where git has no identity yet after
the README's identity line; the drop-in command of README.md copies
exactly the files make dist wrote; the tarball holds the series as it is;
and 'make dist' works with only the default base built."""

import atexit
import filecmp
import os
import pathlib
import random
import re
import shutil
import subprocess
import tarfile
import tempfile

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


# the first kconfig_tree() of each real tree, which the others copy (a
# walk of the whole tree takes seconds), removed at the end
KCONFIG_TREES = {}


def kconfig_tree(real, path):
    """A pristine tree with what 'make oldconfig' reads of the real tree:
    the top Makefile, the architectures' Makefiles, scripts/ and every
    Kconfig file (measured with strace on the three trees: the same output
    and .config as the whole tree), and whatever the series changes.
    Copied, not linked, so that nothing can write through to the tree."""
    first = KCONFIG_TREES.get(real.path)
    if first is None:
        first = tempfile.mkdtemp(prefix='kconfig-tree-')
        atexit.register(shutil.rmtree, first, True)
        walk_kconfig_tree(real, pathlib.Path(first))
        KCONFIG_TREES[real.path] = first
    shutil.copytree(first, path, symlinks=True)


def walk_kconfig_tree(real, path):
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
    assert len(blocks) == 3
    # each way checks first
    assert 'diff -q --to-file=' in blocks[0]
    for block in blocks[1:]:
        assert 'patch -d "$check" -p1 --fuzz=0 -N' in block
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
    # the drop-in files' undo line gives back the tree's files
    undo = re.findall(r'^Undo: (cp /path/to/dist/kconfig-back-VERSION\.orig/\* '
                      r'/path/to/linux/scripts/kconfig/)$', readme, re.M)
    assert len(undo) == 1, readme
    tree = tmp_path / 'linux-undo'
    kconfig_tree(real, tree)
    before = tree_state(tree)
    apply = '\n'.join(blocks[0].rstrip().splitlines()[:-1]).rstrip(' &')
    for script, changes in ((apply, True), (undo[0], False)):
        script = script.replace('/path/to/dist', str(dist))
        script = script.replace('/path/to/linux', str(tree))
        script = re.sub(r'\bVERSION\b', base.version, script)
        r = subprocess.run(['bash', '-e', '-c', script], cwd=tmp_path,
                           env=env, capture_output=True)
        assert r.returncode == 0, (script, r.stderr)
        assert (tree_state(tree) != before) == changes
    assert tree_state(tree) == before


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


def tree_state(tree, skip_git=False, empty_dirs=True):
    """Every file, link and folder under tree with its bytes, target or
    mode: a tree compared byte for byte (without .git/ if skip_git,
    without empty folders unless empty_dirs)."""
    state = {}
    for d, dirs, files in os.walk(tree):
        if skip_git and d == str(tree) and '.git' in dirs:
            dirs.remove('.git')
        for name in dirs + files:
            path = os.path.join(d, name)
            rel = os.path.relpath(path, tree)
            st = os.lstat(path)
            if os.path.islink(path):
                state[rel] = ('link', os.readlink(path))
            elif os.path.isdir(path):
                if empty_dirs or os.listdir(path):
                    state[rel] = ('dir', st.st_mode)
            else:
                with open(path, 'rb') as f:
                    state[rel] = (st.st_mode, f.read())
    return state


def break_a_late_patch(base, tree):
    """Change one line of the tree that the last patch of the series that
    changes an upstream file needs, and no other patch names: the patches
    before it apply, it does not.  Returns that patch's name."""
    texts = {}
    for p in base.patches:
        with open(p, errors='replace') as f:
            texts[p] = f.read()
    for p in reversed(base.patches):
        others = ''.join(t for q, t in texts.items() if q != p)
        for m in re.finditer(r'^diff --git a/(\S+) b/\S+\n(.*?)(?=^diff --git |\Z)',
                             texts[p], re.M | re.S):
            f = tree / m.group(1)
            if not f.is_file():
                continue
            content = f.read_text()
            for line in m.group(2).splitlines():
                if line.startswith(('---', '+++')) or line[:1] not in ' -':
                    continue
                text = line[1:]
                if (len(text.strip()) > 12 and
                        content.count(text + '\n') == 1 and
                        text not in others):
                    f.write_text(content.replace(text + '\n',
                                                 text + ' (a local change)\n'))
                    return os.path.basename(p)
    raise AssertionError('no line to change')


def debian_source_package(tree, env):
    """The tree as 'apt-get source' leaves a Debian source package: a
    quilt series of the package's own (one patch here), applied."""
    patches = tree / 'debian' / 'patches'
    patches.mkdir(parents=True)
    (patches / 'debian-own.patch').write_text(
        '--- /dev/null\n+++ b/debian-own\n@@ -0,0 +1 @@\n+Debian\n')
    (patches / 'series').write_text('debian-own.patch\n')
    subprocess.run(['quilt', 'push', '-a', '-q'], cwd=tree, check=True,
                   capture_output=True,
                   env=dict(env, QUILT_PATCHES='debian/patches'))


def test_readme_routes_literally(real612, tmp_path):
    """Each route of README.md's "Use it in your kernel tree" that ends
    with the tree's own 'make oldconfig' (git am in a git checkout and in
    a tree unpacked from a tarball, quilt in a Debian source package,
    patch without git), run as it stands on its own pristine copy of
    Debian's 6.12 tree (the series of the tree's line in place of the one
    named), on a machine whose git has no identity after the README's
    identity line: three times back, and the .config of the project's
    patched conf.  Without the identity line, the tarball route fails.
    On a tree where a late patch of the series does not apply, each route
    fails and leaves the tree as it was, byte for byte (no patch of the
    series, no commit, no repository, no quilt series, no .rej files);
    and each route's undo block, run after it (up to make oldconfig),
    gives back the pristine tree (quilt pop leaves the folders of the files
    it removes, empty: those aside)."""
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
    undos = [b for b in blocks if 'git reset' in b or 'quilt pop' in b or
             'patch -p1 -R' in b]
    assert [('git reset' in b, '.git' in b, 'quilt pop' in b, '-R' in b)
            for b in undos] == [(True, False, False, False),
                                (True, True, False, False),
                                (False, False, True, False),
                                (False, False, False, True)], undos
    # each route checks every patch before it changes anything
    for b in routes:
        assert 'patch -d "$check" -p1 --fuzz=0 -N' in b
    env = no_identity_env(tmp_path)
    data = session_input()
    old = real.old_config()
    want = patched_config(real, old, data, tmp_path)

    def literally(block, tree, **kw):
        script = block.replace('/path/to/kconfig-back', conflib.TOP)
        script = script.replace('/path/to/linux', str(tree))
        script = re.sub(r'\bpatches/(mainline|6\.12|6\.1|5\.10)\b',
                        'patches/' + real.base.series, script)
        assert '/path/to' not in script
        return subprocess.run(['bash', '-e', '-c', script], cwd=tmp_path,
                              env=env, capture_output=True, **kw)

    # a new machine: the tarball route stops at its first commit
    tree = tmp_path / 'linux'
    kconfig_tree(real, tree)
    r = literally(routes[1], tree, input=data)
    assert r.returncode != 0
    assert b'Please tell me who you are' in r.stderr, r.stderr[-2000:]
    shutil.rmtree(tree)
    r = literally(identity[0], tmp_path)
    assert r.returncode == 0, r.stderr

    def a_tree(i, name):
        tree = tmp_path / ('linux%d-%s' % (i, name))
        kconfig_tree(real, tree)
        (tree / '.config').write_bytes(old)
        if i == 0:
            # a git checkout of the tree
            for cmd in (['git', 'init', '-q'], ['git', 'add', '-f', '-A'],
                        ['git', 'commit', '-q', '-m', 'linux']):
                subprocess.run(cmd, cwd=tree, env=env, check=True,
                               capture_output=True)
        if i == 2:
            debian_source_package(tree, env)
        return tree

    def head(tree):
        return subprocess.run(['git', 'rev-parse', 'HEAD'], cwd=tree,
                              capture_output=True).stdout

    for i, block in enumerate(routes):
        tree = a_tree(i, 'route')
        r = literally(block, tree, input=data)
        assert r.returncode == 0, (block, r.stderr[-3000:])
        assert r.stdout.count(b'* Back to the previous question') == 3, block
        assert r.stdout.count(b'* No earlier answer to go back to') == 0
        assert (tree / '.config').read_bytes() == want, block
        shutil.rmtree(tree)

        # one patch does not apply: nothing changes
        tree = a_tree(i, 'broken')
        broken = break_a_late_patch(real.base, tree)
        before, commit = tree_state(tree), head(tree)
        r = literally(block, tree, stdin=subprocess.DEVNULL)
        assert r.returncode != 0, block
        assert tree_state(tree) == before, (block, broken)
        assert head(tree) == commit
        shutil.rmtree(tree)

        # the undo block after the route gives the pristine tree back
        tree = a_tree(i, 'undo')
        def state():
            return tree_state(tree, skip_git=i == 0, empty_dirs=False)
        before, commit = state(), head(tree)
        applied = block.rstrip()[:-len('make oldconfig')] + 'true\n'
        r = literally(applied, tree, stdin=subprocess.DEVNULL)
        assert r.returncode == 0, (block, r.stderr[-3000:])
        assert state() != before
        r = literally(undos[i], tree, stdin=subprocess.DEVNULL)
        assert r.returncode == 0, (undos[i], r.stderr[-3000:])
        assert state() == before, undos[i]
        assert head(tree) == commit
        shutil.rmtree(tree)


def test_readme_back_without_the_journal(real612, tmp_path):
    """README.md's find of only 0-fixes/ and back/, in the route without
    git: the tree's own conf goes back, and has no journal."""
    real = real612
    if not real.base.has_journal:
        pytest.skip('patches/%s has no journal' % real.base.series)
    section = readme_section('Use it in your kernel tree')
    finds = re.findall(r'`(find /path/to/kconfig-back/patches/6\.12/0-fixes '
                       r'/path/to/kconfig-back/patches/6\.12/back) -name \.\.\.`',
                       section)
    assert len(finds) == 1, section
    route = next(b for b in readme_blocks(section)
                 if 'do patch -p1 --fuzz=0' in b)
    whole = 'find /path/to/kconfig-back/patches/6.12 -name'
    assert whole in route
    script = route.replace(whole, finds[0] + ' -name')
    script = script.replace('/path/to/kconfig-back', conflib.TOP)
    script = script.replace('patches/6.12/', 'patches/%s/' % real.base.series)
    tree = tmp_path / 'linux'
    kconfig_tree(real, tree)
    old = real.old_config()
    (tree / '.config').write_bytes(old)
    script = script.replace('/path/to/linux', str(tree))
    r = subprocess.run(['bash', '-e', '-c', script], input=session_input(),
                       cwd=tmp_path, env=shell_env(), capture_output=True)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.count(b'* Back to the previous question') == 3
    conf_c = (tree / 'scripts' / 'kconfig' / 'conf.c').read_text()
    assert 'KCONFIG_JOURNAL' not in conf_c
    with open(os.path.join(real.base.path, 'patched', 'scripts', 'kconfig',
                           'conf.c')) as f:
        assert 'KCONFIG_JOURNAL' in f.read()


def readme_drop_in():
    """The drop-in block of README.md ('Use it in your kernel tree'),
    without its 'make dist' line, and the undo block after it."""
    blocks = readme_blocks(readme_section('Use it in your kernel tree'))
    i = next(i for i, b in enumerate(blocks)
             if b.startswith('make dist BASE='))
    lines = blocks[i].splitlines()
    assert lines[0] == 'make dist BASE=6.12', lines
    assert blocks[i + 1].startswith('cp build/dist/kconfig-back-<version>.orig/')
    return '\n'.join(lines[1:]) + '\n', blocks[i + 1]


def test_readme_drop_in(series, dist, demo, tmp_path):
    """README.md's drop-in commands, run on a copy of the pristine kconfig
    sources, copy exactly the files make dist wrote, and they make the
    tree's kconfig sources those of the patched build: its conf goes back
    as the patched conf does.  On a tree where one of those files is not
    the version's, they copy nothing; the undo command gives the tree's
    files back."""
    tree = tmp_path / 'linux'
    shutil.copytree(series.pristine, tree, symlinks=True)
    route, undo = readme_drop_in()

    def literally(cmd):
        cmd = cmd.replace('build/dist/', str(dist) + '/')
        cmd = cmd.replace('<version>', series.version)
        cmd = cmd.replace('/path/to/linux/scripts/kconfig',
                          str(tree / series.kconfig_dir))
        cmd = cmd.replace('/path/to/linux', str(tree))
        assert '<' not in cmd and '/path/to' not in cmd, cmd
        return subprocess.run(['bash', '-e', '-c', cmd], cwd=conflib.TOP,
                              capture_output=True, text=True)

    pristine = tree_state(tree)
    kdir = tree / series.kconfig_dir
    drop_in = sorted(os.listdir(dist / ('kconfig-back-%s' % series.version)))
    assert sorted(os.listdir(dist / ('kconfig-back-%s.orig'
                                     % series.version))) == drop_in
    # a tree with a local change in one of the files: nothing copied
    with open(kdir / drop_in[-1], 'a') as f:
        f.write('/* a local change */\n')
    changed = tree_state(tree)
    r = literally(route)
    assert r.returncode != 0
    assert 'differ' in r.stdout + r.stderr, r
    assert tree_state(tree) == changed
    shutil.copy(os.path.join(series.pristine, series.kconfig_dir,
                             drop_in[-1]), kdir / drop_in[-1])
    assert tree_state(tree) == pristine
    r = literally(route)
    assert r.returncode == 0, r.stderr
    changed = sorted(os.path.relpath(f, series.kconfig_dir)
                     for f, v in tree_state(tree).items()
                     if pristine.get(f) != v)
    assert changed == drop_in
    # every kconfig source is now the patched one
    patched = os.path.join(series.path, 'patched', series.kconfig_dir)
    for f in os.listdir(kdir):
        if (kdir / f).is_file():
            assert filecmp.cmp(kdir / f, os.path.join(patched, f),
                               shallow=False), f
    subprocess.run(['make', '-s', '-C', str(tree), '-f',
                    os.path.join(conflib.TOP, 'kconfig', 'conf.mk'),
                    'KIND=' + series.kind, 'K=' + series.kconfig_dir],
                   check=True, capture_output=True)
    kconfig, _, old = demo
    data = b'myhost\n<\n\n\n<\n'
    # the demo's .config names CONFIG_* (Buildroot's conf has no prefix,
    # crosstool-ng's CT_)
    env = dict(os.environ, CONFIG_='CONFIG_')
    runs = [conflib.run_conf(conf, '--oldconfig', kconfig, conflib.DEMO,
                             str(tmp_path), old, data, env)
            for conf in (str(kdir / 'conf'), series.patched)]
    assert runs[0].stdout.count(b'* Back to the previous question') == 2
    assert not runs[0].differences(runs[1])
    # undo: the version's files again (the build's products aside)
    r = literally(undo)
    assert r.returncode == 0, r.stderr
    now = tree_state(tree)
    assert {f: now[f] for f in pristine} == pristine


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
        'README', 'kconfig-back-%s' % dirs[0], 'kconfig-back-%s.orig' % dirs[0],
        'kconfig-back-6.12.tar.gz']


def test_dist_of_a_crosstool_ng_checkout(tmp_path):
    """A crosstool-ng checkout has no .tarball-version: its version is
    its series' name.  make dist writes its drop-in folder and the series'
    tarball side by side, both whole, with the files of its kconfig/."""
    from conftest import BASES
    base = next((b for b in BASES if b.kind == 'crosstool-ng'), None)
    if base is None:
        pytest.skip('no crosstool-ng base built')
    tree = tmp_path / 'ct'
    shutil.copytree(base.pristine, tree, symlinks=True)
    assert not (tree / '.tarball-version').exists()
    env = dict(shell_env(), BUILD_ROOT=str(tmp_path / 'b'))
    r = subprocess.run([conflib.script('build'), '--quiet', '--kernel-src',
                        str(tree)], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    out = tmp_path / 'dist'
    r = subprocess.run([DIST, '--out', str(out)], env=env,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    drop_in = out / 'kconfig-back-crosstool-ng'
    assert 'conf.c' in os.listdir(drop_in)
    assert sorted(os.listdir(drop_in)) == sorted(
        os.listdir(out / 'kconfig-back-crosstool-ng.orig'))
    with open(out / 'README') as f:
        assert ': crosstool-ng (a kconfig/ without a version) (patches/' \
            'crosstool-ng applied), over kconfig/;' in f.read()
    with tarfile.open(out / 'kconfig-back-crosstool-ng.tar.gz') as t:
        names = t.getnames()
    assert sorted(n for n in names if n.endswith('.patch')) == sorted(
        'kconfig-back-crosstool-ng/' + f for f in series_files(base))
