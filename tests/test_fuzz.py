# SPDX-License-Identifier: GPL-2.0
"""KCONFIG_JOURNAL (conf_journal_open() and conf_journal_read() reading it
with the .config reader, then every question checking and taking its
answer, written back, one taken back and the file read again) under
libFuzzer with ASan (leaks included) and UBSan: seconds in 'make check',
ten minutes in 'make check-long'."""

import os
import subprocess

import pytest

from conftest import LONG
import conflib


def test_fuzz_journal_reader(series):
    if not series.has_journal:
        pytest.skip('patches/%s has no journal series' % series.series)
    with open(os.path.join(series.path, 'patched', series.kconfig_dir,
                           'conf.c')) as f:
        conf_c = f.read()
    # the target drives the journal of issue 45 (conf_journal_open(),
    # conf_journal_read() and conf_journal_take_back() of confdata.c,
    # journal_check() and journal_gets() of conf.c), not an earlier one
    if 'conf_journal_take_back(' not in conf_c:
        pytest.skip('patches/%s has a journal from before issue 45'
                    % series.series)
    seconds = 600 if LONG else 20
    r = subprocess.run([os.path.join(conflib.TOP, 'scripts', 'fuzz-journal'),
                        *series.source_args,
                        '--seconds', str(seconds)],
                       capture_output=True, timeout=seconds + 600)
    err = r.stderr.decode(errors='replace')
    assert r.returncode == 0, err[-3000:]
    assert 'Done ' in err and 'ERROR' not in err
