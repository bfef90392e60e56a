# SPDX-License-Identifier: GPL-2.0
"""The real trees: Debian's 7.3 tree with Debian's 6.1, 6.12 and (thinned)
7.3 amd64 configs (about 1000, 175 and 390 NEW questions); Debian's 7.2
tree with Debian's 6.12 configs; Debian's 6.12 tree with Debian's 6.1
configs (all three flavours, about 540); Debian's 6.1 and 5.10 trees with
their own configs thinned (a few hundred).  Seeded random
sessions with runs of '<' are equivalent to the stock conf fed the
surviving answers; without '<' the patched conf is byte-identical to the
stock one; and scripts/oldconfig gives exactly what the tree's own
'make oldconfig' gives."""

import os
import random
import re
import shutil
import subprocess

import pytest

from conftest import seeds
import conflib

FLAVOURS = ['amd64_none_amd64', 'amd64_none_cloud-amd64', 'amd64_rt_amd64']
# questions where going back is most likely to go wrong: choices, and the
# zram compressor choice whose members' visibility depends on answers
FOCUS = r'choice|ZRAM|ZSWAP|_DEF_|DEFAULT'


@pytest.mark.shallow(flavour=FLAVOURS[0])
@pytest.mark.parametrize('flavour', FLAVOURS)
def test_real_sessions(real, tmp_path, flavour):
    old = real.old_config(flavour)
    for seed in seeds(1, 10):
        seed += 1000 * FLAVOURS.index(flavour)
        t, problems = conflib.check_equivalence(
            real.base.patched, real.base.stock, '--oldconfig', 'Kconfig',
            real.path, tmp_path, old, real.env, seed,
            p_back=0.05, max_backs=60, focus=FOCUS, timeout=600)
        assert not problems, 'seed %d: %s' % (seed, problems)
        # the cloud flavour leaves about 200 NEW questions (175 with the
        # 6.12 config on 7.3), the others 540 or more; thinned configs,
        # about half of those
        want = 100 if 'cloud' in flavour else 400
        assert len(t.survived) > (want // 3 if real.old_source(flavour)[2]
                                  else want)
        # the sessions go back: about 0.15 '<' per question asked (a run
        # in twenty questions, eight times as often at FOCUS, 2.9 '<' a
        # run on average), up to max_backs.  Answers that lead to fewer
        # questions give fewer: the thinned cloud config on 6.1 asks 250
        # to 900, and fewer than 30 '<' come in about one session of ten
        # at 250.  A quarter of that rate, at most 30, fails about once
        # in 10,000 sessions there, and at once if '<' is not sent.
        assert t.backs >= min(30, len(t.asked) * 0.15 / 4)


def answers(seed, n=700):
    rng = random.Random(seed)
    pool = [''] * 6 + ['y', 'n', 'm', '?', 'x', '1', '2']
    return ''.join(rng.choice(pool) + '\n' for _ in range(n)).encode()


def test_real_tree_without_back_is_identical(real, tmp_path):
    old = real.old_config()
    diff, r = conflib.compare(real.base.stock, real.base.patched,
                              '--oldconfig', 'Kconfig', real.path,
                              tmp_path, old, answers(1), real.env)
    assert not diff
    assert r.stdout.count(b'(NEW)') > (200 if real.thin else 500)


def test_oldconfig_script_is_make_oldconfig(real, tmp_path):
    """scripts/oldconfig runs conf with the environment of the tree's own
    'make oldconfig': same stdout, stderr and .config for the same input."""
    tree = tmp_path / 'linux'
    subprocess.run(['cp', '-al', real.path, str(tree)], check=True)
    # both run as from a shell, not as sub-makes of 'make check'
    env = {k: v for k, v in os.environ.items()
           if k not in ('MAKEFLAGS', 'MAKELEVEL', 'MFLAGS', 'MAKEOVERRIDES')}
    old = real.old_config()
    cfg = tree / '.config'
    # build the tree's own conf first, so that make prints nothing else
    cfg.write_bytes(old)
    subprocess.run(['make', '-s', 'oldconfig'], cwd=tree, check=True,
                   stdin=subprocess.DEVNULL, capture_output=True, env=env)
    data = answers(2)
    cfg.write_bytes(old)
    made = subprocess.run(['make', 'oldconfig'], cwd=tree, input=data,
                          capture_output=True, env=env)
    made_cfg = cfg.read_bytes()
    cfg.write_bytes(old)
    ours = subprocess.run([os.path.join(conflib.TOP, 'scripts', 'oldconfig'),
                           '--conf', real.base.patched, str(tree)],
                          input=data, capture_output=True, env=env)
    assert made.returncode == ours.returncode == 0
    assert ours.stdout == made.stdout
    assert ours.stderr == made.stderr
    assert cfg.read_bytes() == made_cfg
    assert made.stdout.count(b'(NEW)') > (200 if real.thin else 500)
    shutil.rmtree(tree)


def test_oldconfig_script_other_arch(real612, tmp_path):
    """ARCH=arm64 reaches conf as the tree's make gives it."""
    env = tmp_path / 'env'
    subprocess.run([os.path.join(conflib.TOP, 'scripts', 'oldconfig'),
                    '--print-env', str(env), real612.path, 'ARCH=arm64'],
                   check=True)
    values = dict(v.split('=', 1) for v in env.read_text().split('\0') if v)
    assert values['ARCH'] == 'arm64' and values['SRCARCH'] == 'arm64'
    assert values['srctree'] == '.'
    assert values['KERNELVERSION'] == real612.base.version


def test_oldconfig_script_modes(real612, tmp_path):
    """--mode config and --mode syncconfig (README.md) run conf in those
    modes, in the tree, on its Kconfig: config as --oldaskconfig, as the
    tree's 'make config' does."""
    fake = tmp_path / 'conf'
    fake.write_text('#!/bin/sh\necho "$PWD $*"\n')
    fake.chmod(0o755)
    for mode, arg in (('config', '--oldaskconfig'),
                      ('syncconfig', '--syncconfig'),
                      ('oldconfig', '--oldconfig')):
        r = subprocess.run([conflib.script('oldconfig'), '--conf', str(fake),
                            '--mode', mode, real612.path],
                           capture_output=True, text=True,
                           stdin=subprocess.DEVNULL, env=conflib.shell_env())
        assert r.returncode == 0, r.stderr
        assert r.stdout == '%s %s Kconfig\n' % (real612.path, arg)


@pytest.mark.parametrize('how', ['environment', 'argument'])
def test_oldconfig_journal_is_relative_to_the_caller(real612, tmp_path, how):
    """A relative KCONFIG_JOURNAL given to scripts/oldconfig, in the
    environment or as VAR=VALUE, is relative to where it was typed: the
    journal is created there, not in the kernel tree where conf runs."""
    if not real612.base.has_journal:
        pytest.skip('patches/%s has no journal' % real612.base.series)
    here = tmp_path / 'here'
    here.mkdir()
    config = tmp_path / '.config'
    config.write_bytes(real612.old_config())
    name = 'rel-%s.config' % tmp_path.name
    # a copy: conf writes include/config and include/generated in the
    # tree it runs in, which the other tests share
    tree = tmp_path / 'linux'
    clean_copy(real612, tree)
    in_tree = os.path.join(tree, name)
    env = conflib.shell_env(KCONFIG_CONFIG=str(config))
    args = [conflib.script('oldconfig'), '--conf', real612.base.patched,
            str(tree)]
    if how == 'environment':
        env['KCONFIG_JOURNAL'] = name
    else:
        args.append('KCONFIG_JOURNAL=' + name)
    try:
        # one answer typed (Enter), then the end of the input
        r = subprocess.run(args, input=b'\n', capture_output=True, cwd=here,
                           env=env)
        assert r.returncode == 0, r.stderr
        assert not os.path.exists(in_tree)
        journal = (here / name).read_text()
        # the answer, as a .config line
        assert re.match(r'(# )?CONFIG_\w+[= ]', journal)
    finally:
        if os.path.exists(in_tree):
            os.unlink(in_tree)


def clean_copy(real, dest):
    """A copy of the real tree (hard links) as 'make mrproper' leaves it:
    without what a conf run in the tree itself writes there (.config,
    include/config, include/generated), which 'make O=' refuses."""
    subprocess.run(['cp', '-al', real.path, str(dest)], check=True)
    for name in ('.config', 'include/config', 'include/generated',
                 'arch/x86/include/generated'):
        path = os.path.join(dest, name)
        if os.path.isdir(path):
            shutil.rmtree(path)
        elif os.path.lexists(path):
            os.unlink(path)


def tree_listing(path):
    """Every name under a tree, with its size and kind: what a run that
    writes into the tree changes."""
    out = set()
    for d, dirs, files in os.walk(path):
        for n in dirs + files:
            st = os.lstat(os.path.join(d, n))
            out.add((os.path.relpath(os.path.join(d, n), path), st.st_size
                     if not os.path.isdir(os.path.join(d, n)) else 0))
    return out


@pytest.fixture(scope='module')
def made_in_a_build_dir(real612, tmp_path_factory):
    """The tree's own 'make O=DIR oldconfig' on the 6.12 tree, answers(3)
    typed: (its stdout, DIR/.config)."""
    real = real612
    tmp = tmp_path_factory.mktemp('made')
    env = conflib.shell_env()
    ref_tree, ref = tmp / 'ref-linux', tmp / 'ref-build'
    clean_copy(real, ref_tree)
    ref.mkdir()
    old = real.old_config()
    (ref / '.config').write_bytes(old)
    # its conf built first
    subprocess.run(['make', '-s', 'O=' + str(ref), 'oldconfig'],
                   cwd=ref_tree, check=True, stdin=subprocess.DEVNULL,
                   capture_output=True, env=env)
    (ref / '.config').write_bytes(old)
    made = subprocess.run(['make', 'O=' + str(ref), 'oldconfig'],
                          cwd=ref_tree, input=answers(3), capture_output=True,
                          env=env)
    assert made.returncode == 0, made.stderr[-2000:]
    result = made.stdout, (ref / '.config').read_bytes()
    shutil.rmtree(tmp)
    return result


@pytest.mark.parametrize('how', ['O= (README)', 'KBUILD_OUTPUT argument',
                                 'KBUILD_OUTPUT environment'])
def test_oldconfig_script_with_a_build_dir(real612, made_in_a_build_dir,
                                           tmp_path, how):
    """README.md's 'scripts/oldconfig /path/to/linux O=/path/to/build',
    run as it stands (and KBUILD_OUTPUT=DIR, relative to where it is
    typed, as an argument or in the environment), is 'make O=DIR
    oldconfig': conf's output and the .config it writes in DIR are those
    of the tree's own make, and the source tree is left as it was: no
    .config, include/config or include/generated in it."""
    real = real612
    with open(os.path.join(conflib.TOP, 'README.md')) as f:
        cmd = [line.strip() for line in f
               if line.strip().startswith('scripts/oldconfig /path/to/linux O=')]
    assert cmd == ['scripts/oldconfig /path/to/linux O=/path/to/build']
    env = conflib.shell_env()
    old = real.old_config()
    data = answers(3)
    # the tree's own make O=DIR oldconfig, on a tree of its own
    made_stdout, made_config = made_in_a_build_dir
    tree, build = tmp_path / 'linux', tmp_path / 'build'
    clean_copy(real, tree)
    build.mkdir()
    (build / '.config').write_bytes(old)
    before = tree_listing(tree)
    script = cmd[0].replace('/path/to/linux', str(tree))
    cwd = conflib.TOP
    if how != 'O= (README)':
        # relative to where it is typed
        cwd = str(tmp_path)
        script = script.replace('scripts/oldconfig', conflib.script(
            'oldconfig')).replace('O=/path/to/build', '')
        if how == 'KBUILD_OUTPUT argument':
            script += 'KBUILD_OUTPUT=build'
        else:
            env['KBUILD_OUTPUT'] = 'build'
    script = script.replace('/path/to/build', str(build))
    assert '/path/to' not in script
    ours = subprocess.run(['bash', '-e', '-c', script], input=data,
                          capture_output=True, env=env, cwd=cwd)
    assert ours.returncode == 0, ours.stderr[-2000:]
    # make says where it goes around conf's output
    assert ours.stdout and ours.stdout in made_stdout
    assert ours.stdout.count(b'(NEW)') > 500
    assert (build / '.config').read_bytes() == made_config
    for name in ('.config', 'include/config', 'include/generated'):
        assert not (tree / name).exists(), name
    assert tree_listing(tree) == before
    shutil.rmtree(tree)
