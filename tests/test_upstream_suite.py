# SPDX-License-Identifier: GPL-2.0
"""The base's own kconfig test suite (scripts/kconfig/tests, as 'make
testconfig' runs it) passes with the patched conf, new cases included;
and the new cases are not vacuous: they fail with the stock conf."""

import os
import re
import shutil
import subprocess
import sys


def suite(tree):
    return subprocess.run([sys.executable, '-B', '-m', 'pytest', '-v',
                           '-p', 'no:cacheprovider', 'scripts/kconfig/tests'],
                          cwd=tree, capture_output=True, text=True, timeout=600)


def outcomes(output):
    return dict(re.findall(r'^scripts/kconfig/tests/(\S+) (PASSED|FAILED)',
                           output, re.M))


def test_suite_passes_with_patched_conf(base):
    r = suite(os.path.join(base.path, 'patched'))
    assert r.returncode == 0, r.stdout[-3000:]
    results = outcomes(r.stdout)
    assert len(results) >= 16 and set(results.values()) == {'PASSED'}


def test_new_cases_fail_with_stock_conf(series, tmp_path):
    tree = tmp_path / 'tree'
    shutil.copytree(os.path.join(series.path, 'patched'), tree, symlinks=True)
    shutil.copy(series.stock, tree / 'scripts' / 'kconfig' / 'conf')
    results = outcomes(suite(tree).stdout)
    # the stock tree carries the series' fixes outside conf.c with their
    # own cases: those pass with stock, the cases of '<' must not
    stock = os.listdir(os.path.join(series.path, 'stock', 'scripts', 'kconfig',
                                    'tests'))
    new = {t: o for t, o in results.items() if t.split('/')[0] not in stock}
    old = {t: o for t, o in results.items() if t.split('/')[0] in stock}
    # every test function of the new cases ran (and failed, below)
    tests = os.path.join(tree, 'scripts', 'kconfig', 'tests')
    defined = sum(open(os.path.join(tests, d, '__init__.py')).read().count(
        '\ndef test') for d in os.listdir(tests)
        if d not in stock and os.path.isfile(
            os.path.join(tests, d, '__init__.py')))
    assert len(new) == defined >= 8
    # the cases of '<' fail with stock conf in every test; a journal case
    # may also check what stock conf does as well (nothing written when
    # nothing is asked), as long as the case as a whole fails
    back = {t: o for t, o in new.items() if not t.startswith('journal/')}
    assert set(back.values()) == {'FAILED'}, back
    for case in {t.split('/')[0] for t in new}:
        assert 'FAILED' in {o for t, o in new.items()
                            if t.split('/')[0] == case}, case
    assert set(old.values()) == {'PASSED'}, old
