# SPDX-License-Identifier: GPL-2.0
"""The base's own kconfig test suite (scripts/kconfig/tests, as 'make
testconfig' runs it) passes with the patched conf, new cases included;
and the new cases are not vacuous: they fail with the stock conf.  The
bases whose sources keep no kconfig suite (Buildroot's, coreboot's and
crosstool-ng's kconfig) skip these."""

import os
import re
import shutil
import subprocess
import sys

import pytest


def suite_dir(base, variant):
    """The kconfig folder's tests/ of a built tree, or a skip."""
    tests = os.path.join(base.path, variant, base.kconfig_dir, 'tests')
    if not os.path.isdir(tests):
        pytest.skip('%s keeps no kconfig suite (no %s/tests)'
                    % (base.version, base.kconfig_dir))
    return tests


def suite(tree, base):
    return subprocess.run([sys.executable, '-B', '-m', 'pytest', '-v',
                           '-p', 'no:cacheprovider',
                           base.kconfig_dir + '/tests'],
                          cwd=tree, capture_output=True, text=True, timeout=600)


def outcomes(output, base):
    return dict(re.findall(r'^' + re.escape(base.kconfig_dir) +
                           r'/tests/(\S+) (PASSED|FAILED)', output, re.M))


@pytest.mark.shallow
def test_suite_passes_with_patched_conf(base):
    suite_dir(base, 'patched')
    r = suite(os.path.join(base.path, 'patched'), base)
    assert r.returncode == 0, r.stdout[-3000:]
    results = outcomes(r.stdout, base)
    # Linux's suite has 16 cases or more, U-Boot's (Linux 4.20's) 9
    assert len(results) >= (16 if base.kind == 'linux' else 9)
    assert set(results.values()) == {'PASSED'}


@pytest.mark.shallow
def test_new_cases_fail_with_stock_conf(series, tmp_path):
    suite_dir(series, 'patched')
    tree = tmp_path / 'tree'
    shutil.copytree(os.path.join(series.path, 'patched'), tree, symlinks=True)
    shutil.copy(series.stock, tree / series.kconfig_dir / 'conf')
    results = outcomes(suite(tree, series).stdout, series)
    # the stock tree carries the series' fixes outside conf.c with their
    # own cases: those pass with stock, the cases of '<' must not
    stock = os.listdir(suite_dir(series, 'stock'))
    new = {t: o for t, o in results.items() if t.split('/')[0] not in stock}
    old = {t: o for t, o in results.items() if t.split('/')[0] in stock}
    # every test function of the new cases ran (and failed, below)
    tests = os.path.join(tree, series.kconfig_dir, 'tests')
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
