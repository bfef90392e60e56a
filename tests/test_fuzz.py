# SPDX-License-Identifier: GPL-2.0
"""The KCONFIG_JOURNAL reader under libFuzzer with ASan (leaks included)
and UBSan: seconds in 'make check', ten minutes in 'make check-long'."""

import os
import subprocess

import pytest

from conftest import LONG
import conflib


def test_fuzz_journal_reader(series):
    if 'KCONFIG_JOURNAL' not in open(os.path.join(
            series.path, 'patched', 'scripts', 'kconfig', 'conf.c')).read():
        pytest.skip('patches/%s has no journal yet' % series.series)
    seconds = 600 if LONG else 20
    r = subprocess.run([os.path.join(conflib.TOP, 'scripts', 'fuzz-journal'),
                        '--kernel-src', series.env['SOURCE'],
                        '--seconds', str(seconds)],
                       capture_output=True, timeout=seconds + 600)
    err = r.stderr.decode(errors='replace')
    assert r.returncode == 0, err[-3000:]
    assert 'Done ' in err and 'ERROR' not in err
