# SPDX-License-Identifier: GPL-2.0
"""Reading KCONFIG_JOURNAL (kconfig's conf_read_simple(), then every
question taking its answer) under libFuzzer with ASan (leaks included) and
UBSan: seconds in 'make check', ten minutes in 'make check-long'."""

import os
import subprocess

import pytest

from conftest import LONG
import conflib


def test_fuzz_journal_reader(series):
    if not series.has_journal:
        pytest.skip('patches/%s has no journal series' % series.series)
    if 'journal_take(' not in open(os.path.join(
            series.path, 'patched', 'scripts', 'kconfig', 'conf.c')).read():
        pytest.skip('patches/%s has a journal of the old design'
                    % series.series)
    seconds = 600 if LONG else 20
    r = subprocess.run([os.path.join(conflib.TOP, 'scripts', 'fuzz-journal'),
                        '--kernel-src', series.env['SOURCE'],
                        '--seconds', str(seconds)],
                       capture_output=True, timeout=seconds + 600)
    err = r.stderr.decode(errors='replace')
    assert r.returncode == 0, err[-3000:]
    assert 'Done ' in err and 'ERROR' not in err
