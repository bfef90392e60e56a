# SPDX-License-Identifier: GPL-2.0
"""The project's scripts: shellcheck-clean, 'set -eu', and a --help that
says what they do."""

import glob
import os
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


def test_install_deps_counts_the_mainline_download(tmp_path):
    """linux-source-7.3 is not in Debian 12: --check reports it missing
    until it is downloaded, with the command that downloads it; an unknown
    base is refused, naming the bases."""
    deps = os.path.join(conflib.TOP, 'scripts', 'install-deps')
    env = dict(os.environ, BUILD_ROOT=str(tmp_path / 'b'))
    if os.path.exists('/usr/src/linux-source-7.3.tar.xz'):
        pytest.skip('linux-source-7.3 is installed here')
    for args in (['--test', '--check'], ['--base', '7.3', '--check']):
        r = subprocess.run([deps, *args], capture_output=True, text=True,
                           env=env)
        assert r.returncode == 1
        assert 'linux-source-7.3' in r.stderr
        assert 'scripts/install-deps --base 7.3' in r.stderr
    r = subprocess.run([deps, '--base', '7.3', '--print'],
                       capture_output=True, text=True, env=env)
    assert r.returncode == 0
    assert r.stdout.splitlines()[-1] == 'scripts/install-deps --base 7.3'
    # the default base is Debian 12's own: nothing to download
    r = subprocess.run([deps, '--check'], capture_output=True, text=True,
                       env=env)
    assert 'linux-source-7.3' not in r.stderr
    for base in ('5.10', 'mainline'):
        r = subprocess.run([deps, '--base', base], capture_output=True,
                           text=True, env=env)
        assert r.returncode == 1
        assert 'BASE= is one of 7.3, 6.12, 6.1' in r.stderr
        assert not os.path.exists(tmp_path / 'b')


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


def test_demo_says_where_the_config_is(series, demo, tmp_path):
    """On pipes the demo's stdout is conf's own, byte for byte (no line
    about '<'), and a last line on stderr names the .config written."""
    data = b'myhost\n<\n\n'
    r = subprocess.run([conflib.script('demo'), *series.source_args],
                       input=data, capture_output=True, cwd=conflib.TOP,
                       env=conflib.shell_env())
    assert r.returncode == 0
    kconfig, srctree, old = demo
    conf = conflib.run_conf(series.patched, '--oldconfig', kconfig, srctree,
                            tmp_path, old, data)
    assert r.stdout == conf.stdout
    assert r.stdout.endswith(b'# configuration written to .config\n#\n')
    assert r.stderr == conf.stderr + (
        'demo: configuration written to %s\n'
        % conflib.shown_demo_config()).encode()
    with open(os.path.join(conflib.BUILD, 'demo', '.config'), 'rb') as f:
        assert f.read() == conf.config


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
