# SPDX-License-Identifier: GPL-2.0
"""Going back with '<' is exact: a session with '<' ends with the same
.config, and asks the same questions in the same order, as the stock conf
fed only the answers that survived (seeded random sessions on the demo and
on the base's kconfig test trees, in oldconfig, oldaskconfig and
syncconfig).  And '<' never makes conf loop or lose input."""

import os
import random
import subprocess

import pytest

from conftest import seeds
import conflib


@pytest.fixture(autouse=True)
def config_prefix(monkeypatch):
    """The .config files here name symbols CONFIG_*: Buildroot's conf
    (built with no prefix) and crosstool-ng's (CT_) take the prefix that
    the variable CONFIG_ names, as Linux's does; and KCONFIG_AUTOCONFIG
    Linux's default, which Buildroot's conf does not have."""
    monkeypatch.setenv('CONFIG_', 'CONFIG_')
    if 'KCONFIG_AUTOCONFIG' not in os.environ:
        monkeypatch.setenv('KCONFIG_AUTOCONFIG', 'include/config/auto.conf')


def equivalent(series, tmp_path, mode, kconfig, srctree, cfg, seed, **kw):
    t, problems = conflib.check_equivalence(
        series.patched, series.stock, mode, kconfig, srctree, tmp_path, cfg,
        os.environ, seed, **kw)
    assert not problems, 'seed %d: %s' % (seed, problems)
    return t


@pytest.mark.parametrize('mode', conflib.INTERACTIVE_MODES)
def test_demo_sessions(series, demo, tmp_path, mode):
    kconfig, srctree, old = demo
    backs = 0
    for seed in seeds(40, 400):
        t = equivalent(series, tmp_path, mode, kconfig, srctree, old, seed,
                       p_back=0.3)
        backs += t.backs
    assert backs > 100


def test_fixture_sessions(series, tmp_path):
    fixtures = series.fixtures('patched')
    if not fixtures and series.kind in ('buildroot', 'coreboot',
                                        'crosstool-ng'):
        pytest.skip('%s keeps no kconfig suite' % series.version)
    tried = 0
    for name, path, cfg in fixtures:
        for mode in ('--oldconfig', '--oldaskconfig'):
            for seed in seeds(5, 50):
                t = equivalent(series, tmp_path, mode, 'Kconfig', path, cfg,
                               seed, p_back=0.3)
                tried += bool(t.backs)
    assert tried > 20


def test_flood_of_back_ends_at_eof(series, demo, tmp_path):
    """Piped '<' lines, however many, end like any other input."""
    kconfig, srctree, old = demo
    for data in (b'<\n' * 5000, b'foo\n' + b'<\n' * 5000, b'<'):
        r = conflib.run_conf(series.patched, '--oldconfig', kconfig, srctree,
                             tmp_path, old, data, timeout=30)
        assert r.returncode == 0
        assert b'Error in reading or end of file' in r.stderr
    assert r.config is not None


def test_random_streams_with_back_terminate(series, demo, tmp_path):
    kconfig, srctree, old = demo
    # Buildroot's conf makes no directories (its make does): syncconfig
    # cannot write include/ here, and its stock conf fails the same way
    unwritable = conflib.run_conf(series.stock, '--syncconfig', kconfig,
                                  srctree, tmp_path, old).returncode
    for seed in seeds(100, 1000):
        data = conflib.random_stream(random.Random(seed), max_lines=80,
                                     back=True)
        for mode in conflib.INTERACTIVE_MODES:
            r = conflib.run_conf(series.patched, mode, kconfig, srctree,
                                 tmp_path, old, data, timeout=30)
            # an invalid int as the last, unterminated line stops conf
            # with an error, as it stops the stock conf
            assert r.returncode == 0 or (
                r.returncode == 1 and b'at end of input' in r.stderr) or (
                mode == '--syncconfig' and unwritable and
                r.stderr.endswith(b'*** Error during update of the '
                                  b'configuration.\n\n')), (
                seed, mode, r.stderr[-500:])


def test_equivalence_check_catches_a_wrong_undo(series, demo, tmp_path):
    """The equivalence check is not vacuous: the stock conf, which takes
    '<' as an invalid answer or as a string, fails it."""
    kconfig, srctree, old = demo
    failed = 0
    for seed in range(10):
        _, problems = conflib.check_equivalence(
            series.stock, series.stock, '--oldconfig', kconfig, srctree,
            tmp_path, old, os.environ, seed, p_back=0.3)
        failed += bool(problems)
    assert failed >= 8


def test_back_then_end_of_input(series, demo, tmp_path):
    """'<' and then the end of the input: the usual defaults apply, as in
    the stock conf fed the answers that survived."""
    kconfig, srctree, old = demo
    for typed, survived in ((b'myhost\n<\n', b''),
                            (b'myhost\n20\n<\n<\n', b''),
                            (b'myhost\n20\n<\n', b'myhost\n')):
        r = conflib.run_conf(series.patched, '--oldconfig', kconfig, srctree,
                             tmp_path, old, typed)
        s = conflib.run_conf(series.stock, '--oldconfig', kconfig, srctree,
                             tmp_path, old, survived)
        assert (r.returncode, r.config) == (s.returncode, s.config), typed
        assert b'myhost' in r.stdout


def test_back_recalculates_the_question(series, tmp_path):
    """Going back two questions to B, whose visibility the answer to the
    later question A took away (and D, calculated after it, saw): B is
    asked as it was, not with the visibility calculated after A."""
    (tmp_path / 'Kconfig').write_text(
        'config B\n\tbool "B"\n\tdepends on A\n\n'
        'config A\n\tbool "A"\n\tdefault y\n\n'
        'config D\n\tbool "D"\n\tdepends on B\n\n'
        'config C\n\tbool "C"\n')
    work = tmp_path / 'work'
    work.mkdir()
    t, problems = conflib.check_equivalence(
        series.patched, series.stock, '--oldconfig', 'Kconfig', tmp_path,
        work, None, os.environ, 0, p_back=0,
        script=['y', 'n', '<', '<', 'y', '', 'y', ''])
    assert t.backs == 2 and not problems, problems
    assert t.result.stdout.count(b'B (B) [N/y/?] (NEW) y\nA (A)') == 2


def same_as_stock(series, tmp_path, kconfig, old, typed, survived, env=None,
                  mode='--oldconfig'):
    """conf given the lines typed ends as stock given the lines that
    survive the '<' in them: exit status, .config and include/."""
    tree = tmp_path / 'tree'
    tree.mkdir(exist_ok=True)
    (tree / 'Kconfig').write_text(kconfig)
    env = dict(os.environ, **(env or {}))
    r = conflib.run_conf(series.patched, mode, 'Kconfig', str(tree),
                         tmp_path, old, typed, env)
    s = conflib.run_conf(series.stock, mode, 'Kconfig', str(tree), tmp_path,
                         old, survived, env)
    assert (r.returncode, r.config, r.include) == \
        (s.returncode, s.config, s.include), (typed, r.stderr[-300:])
    return r


AB = ('config A\n\tbool "A"\n\nconfig B\n\tbool "B"\n\tdefault y if A\n\n'
      'config C\n\tbool "C"\n')
VALUES = ('config N\n\tint "N"\n\trange 1 10\n\nconfig S\n\tstring "S"\n\n'
          'choice\n\tprompt "C"\n\nconfig C1\n\tbool "C1"\n\n'
          'config C2\n\tbool "C2"\n\nendchoice\n\nconfig L\n\tbool "L"\n')


def test_last_line_without_newline(series, tmp_path):
    """An answer on a last line without its newline, after '<', is taken
    as stock takes it: 'y' gives A=y, of any type."""
    r = same_as_stock(series, tmp_path, AB, None, b'y\n<\ny', b'y')
    assert b'CONFIG_A=y\n' in r.config
    for typed, survived in ((b'5\nfirst\n<\nsecond', b'5\nsecond'),
                            (b'5\ns\n2\n<\n1', b'5\ns\n1'),
                            (b'5\ns\n2\n<\n<\nt\n', b'5\nt\n')):
        same_as_stock(series, tmp_path, VALUES, None, typed, survived)


def test_enter_after_back_takes_the_default_of_then(series, tmp_path):
    """An Enter that took B's default when A was y is not kept as y when A
    is answered n after going back: B's default is then n."""
    r = same_as_stock(series, tmp_path, AB, None, b'y\n\n<\n<\nn\n\n',
                      b'n\n\n')
    assert b'# CONFIG_B is not set\n' in r.config


def test_back_at_the_end_of_the_input(series, tmp_path):
    """A last '<' without a newline goes back, and the question it goes
    back to meets the end of the input, as stock does after the surviving
    answers (a refused answer before it is answered again, not taken as
    the end of the input)."""
    r = same_as_stock(series, tmp_path, VALUES, None, b'x\n7\nname\n<',
                      b'x\n7\n')
    assert b'CONFIG_N=7\nCONFIG_S=""\n' in r.config
    # the reading's reproducer: a refused number, and '<' at the end
    r = same_as_stock(series, tmp_path, VALUES, None, b'x\n5\ny\n<',
                      b'x\n5\n')
    assert r.returncode == 0 and b'CONFIG_N=5\n' in r.config
    # on a pipe conf echoes the line as read: without its newline, the
    # 'Back' line follows it, as stock's next prompt follows such a line
    assert r.stdout.endswith(b': <* Back to the previous question\n'
                             b'S (S) [] (NEW) \nC\n> 1. C1 (C1) (NEW)\n'
                             b'  2. C2 (C2) (NEW)\nchoice[1-2?]: L (L) '
                             b'[N/y/?] (NEW) \n#\n# configuration written '
                             b'to .config\n#\n'), r.stdout[-300:]


def test_old_configs(series, tmp_path):
    """Going back starts again from the old configuration however it was
    found: none, .config, or KCONFIG_DEFCONFIG_LIST (a missing file first),
    from the values read at first: the file is not read again, so its
    message and the warnings of its unknown symbols come once, as stock
    prints them (5.10, and the older copies in U-Boot, Buildroot and
    crosstool-ng, have neither the variable nor the warning)."""
    old = b'CONFIG_A=y\nCONFIG_GONE=y\n'
    with open(os.path.join(series.pristine, series.kconfig_dir,
                           'confdata.c')) as f:
        has_defconfig_list = 'KCONFIG_DEFCONFIG_LIST' in f.read()
    defconfig = tmp_path / 'defconfig'
    defconfig.write_bytes(old)
    for cfg, env in ((None, None), (old, None),
                     (old, {'KCONFIG_WARN_UNKNOWN_SYMBOLS': '1'}),
                     (None, {'KCONFIG_DEFCONFIG_LIST': '%s %s' % (
                         tmp_path / 'missing', defconfig)})):
        for typed, survived in ((b'n\n\n\n5\n<\n6\n', b'n\n\n\n6\n'),
                                (b'y\n<\nn\n', b'n\n')):
            r = same_as_stock(series, tmp_path, AB + VALUES, cfg, typed,
                              survived, env)
            s = conflib.run_conf(series.stock, '--oldconfig', 'Kconfig',
                                 str(tmp_path / 'tree'), tmp_path, cfg,
                                 survived, dict(os.environ, **(env or {})))
            said = s.stdout.count(b'using defaults found in')
            assert said == (cfg is None and env is not None) or \
                not has_defconfig_list
            assert r.stdout.count(b'using defaults found in') == said
            assert r.stderr.count(b'unknown symbol') == \
                s.stderr.count(b'unknown symbol')


@pytest.mark.parametrize('mode', conflib.INTERACTIVE_MODES)
def test_variables(series, demo, tmp_path, mode):
    """Seeded sessions with '<' on the demo under the KCONFIG_* variables
    that change what conf reads, writes or fails on."""
    kconfig, srctree, old = demo
    for env in ({'KCONFIG_WERROR': '1'}, {'KCONFIG_OVERWRITECONFIG': '1'},
                {'KCONFIG_WARN_CHANGED_INPUT': '1'},
                {'KCONFIG_AUTOCONFIG': 'include/other/auto.conf',
                 'KCONFIG_AUTOHEADER': 'include/other/autoconf.h'}):
        for seed in seeds(3, 30):
            t, problems = conflib.check_equivalence(
                series.patched, series.stock, mode, kconfig, srctree,
                tmp_path, old, dict(os.environ, **env), seed, p_back=0.3)
            assert not problems, (env, seed, problems)


def test_help_after_going_back_to_the_first_question(series, tmp_path):
    """With no config file, stock conf shows in '?' the values it has not
    calculated yet (B [=n] below, as parsed): after going back to the first
    question, conf shows them as stock does, not those calculated before."""
    kconfig = ('config A\n\tbool "A"\n\tselect B\n\nconfig B\n\tbool\n\t'
               'default y\n\nconfig C\n\tbool "C"\n\tdepends on B\n')
    r = same_as_stock(series, tmp_path, kconfig, None, b'n\n<\n?\n', b'?\n')
    tree = str(tmp_path / 'tree')
    s = conflib.run_conf(series.stock, '--oldconfig', 'Kconfig', tree,
                         tmp_path, None, b'?\n')
    tail = r.stdout.split(b'* Back to the previous question\n', 1)[1]
    assert s.stdout.endswith(tail) and b'Selects: B [=n]' in tail


def run_without_dev_null(conf, tree, data):
    """conf --oldaskconfig on tree/Kconfig where /dev is an empty tmpfs (a
    chroot or container without /dev/null), in a mount namespace."""
    return subprocess.run(
        ['unshare', '--mount', 'sh', '-c',
         'mount -t tmpfs none /dev && cd "$1" && shift && exec "$@"', 'sh',
         str(tree), conf, '--oldaskconfig', 'Kconfig'],
        input=data, capture_output=True, env=dict(
            os.environ, srctree=str(tree), KCONFIG_DEFCONFIG_LIST=''))


def test_without_dev_null(series, tmp_path):
    """The reading's reproducer of a replay muted through /dev/null: where
    there is none, going back still ends as stock given the lines that
    survive (B's default follows A)."""
    tree = tmp_path / 'tree'
    tree.mkdir()
    (tree / 'Kconfig').write_text(AB)
    probe = run_without_dev_null('true', tree, b'')
    if probe.returncode:
        pytest.skip('no mount namespace here: %s' % probe.stderr.decode())
    r = run_without_dev_null(series.patched, tree, b'y\nn\n<\n\n\n')
    assert r.returncode == 0, r.stderr.decode()
    assert b'Back to the previous question' in r.stdout
    with open(tree / '.config', 'rb') as f:
        config = f.read()
    s = conflib.run_conf(series.stock, '--oldaskconfig', 'Kconfig',
                         str(tree), tmp_path, None, b'y\n\n\n')
    assert config == s.config
    assert b'CONFIG_B=y\n' in config


def test_config_edited_meanwhile(series, tmp_path):
    """The reading's other reproducer: .config written by someone else
    between two answers; '<' starts again from the values read at first,
    and conf goes on asking and writes .config as stock given the lines
    that survive."""
    tree = tmp_path / 'tree'
    tree.mkdir()
    (tree / 'Kconfig').write_text(AB.replace('config C\n\tbool "C"',
                                             'config C\n\tstring "C"'))
    (tree / '.config').write_bytes(b'')
    env = dict(os.environ, srctree=str(tree), KCONFIG_DEFCONFIG_LIST='')
    s = conflib.Session([series.patched, '--oldconfig', 'Kconfig'],
                        str(tree), env, timeout=60)
    s.wait()
    for line in ('y', 'y'):
        s.send(line)
        s.wait()
    (tree / '.config').write_bytes(
        b'CONFIG_A=y\nCONFIG_B=y\nCONFIG_C="edited"\n')
    s.send('<')
    assert 'Back to the previous question' in s.wait()
    assert s.close() == 0
    stock = conflib.run_conf(series.stock, '--oldconfig', 'Kconfig',
                             str(tree), tmp_path, b'', b'y\n')
    with open(tree / '.config', 'rb') as f:
        assert f.read() == stock.config
    assert b'configuration written' in bytes(s.out)
