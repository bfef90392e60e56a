# SPDX-License-Identifier: GPL-2.0
"""A pytest plugin for running a kernel tree's own kconfig tests
(scripts/kconfig/tests), whose runner keeps sending Enter until conf
exits: a test still running after SUITE_TEST_TIMEOUT seconds (default
10; a test takes well under one), as with a conf that loops, fails
instead of hanging the suite."""

import os
import signal

import pytest


class Expired(Exception):
    pass


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    seconds = int(os.environ.get('SUITE_TEST_TIMEOUT', '10'))

    def expire(signum, frame):
        raise Expired('no end after %d s: conf loops?' % seconds)

    old = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
