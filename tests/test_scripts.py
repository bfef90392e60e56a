# SPDX-License-Identifier: GPL-2.0
"""The project's scripts: shellcheck-clean, 'set -eu', and a --help that
says what they do."""

import glob
import os
import subprocess

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
