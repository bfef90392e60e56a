# SPDX-License-Identifier: GPL-2.0
"""KCONFIG_JOURNAL (journal_open() reading it with conf_read_file(), then
every question taking its answer) under libFuzzer with ASan (leaks
included) and UBSan: seconds in 'make check', ten minutes in
'make check-long'."""

import os
import subprocess

import pytest

from conftest import LONG
import conflib


def test_fuzz_journal_reader(series):
    if not series.has_journal:
        pytest.skip('patches/%s has no journal series' % series.series)
    with open(os.path.join(series.path, 'patched', 'scripts', 'kconfig',
                           'conf.c')) as f:
        conf_c = f.read()
    # the target drives the journal of issue 21 (journal_open(),
    # journal_take(), conf_read_file()), not the one before it
    if 'answers no longer kept there' not in conf_c:
        pytest.skip('patches/%s has the journal from before issue 21'
                    % series.series)
    seconds = 600 if LONG else 20
    r = subprocess.run([os.path.join(conflib.TOP, 'scripts', 'fuzz-journal'),
                        '--kernel-src', series.env['SOURCE'],
                        '--seconds', str(seconds)],
                       capture_output=True, timeout=seconds + 600)
    err = r.stderr.decode(errors='replace')
    assert r.returncode == 0, err[-3000:]
    assert 'Done ' in err and 'ERROR' not in err
