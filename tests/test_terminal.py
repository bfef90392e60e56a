# SPDX-License-Identifier: GPL-2.0
"""A real terminal: '<' works when stdin is a tty (conf does not echo the
line then), Ctrl-C leaves .config untouched, and the project's scripts say
before the first question that '<' goes back (conf itself does not: the
series prints nothing new without '<')."""

import os
import signal

import pexpect

import conflib


def spawn(conf, demo, tmp_path):
    kconfig, srctree, old = demo
    (tmp_path / '.config').write_bytes(old)
    # a shell's background job inherits SIGINT ignored: Ctrl-C must work
    child = pexpect.spawn(conf, ['--oldconfig', kconfig], cwd=str(tmp_path),
                          env=dict(os.environ, srctree=srctree),
                          encoding='utf-8', timeout=20,
                          preexec_fn=lambda: signal.signal(signal.SIGINT,
                                                           signal.SIG_DFL))
    child.logfile_read = open(tmp_path / 'transcript', 'w')
    return child


def answer_and_go_back(child):
    """Answer the first question, then '<' at the second."""
    child.expect_exact('(DEFAULT_HOSTNAME) [(none)] (NEW) ')
    child.sendline('myhost')
    child.expect_exact('(LOG_BUF_SHIFT) [17] (NEW) ')
    child.sendline('<')
    child.expect_exact('* Back to the previous question')
    child.expect_exact('(DEFAULT_HOSTNAME) [(none)] (NEW) ')


def test_back_on_a_tty(series, demo, tmp_path):
    child = spawn(series.patched, demo, tmp_path)
    answer_and_go_back(child)
    child.sendline('otherhost')
    child.expect_exact('(LOG_BUF_SHIFT) [17] (NEW) ')
    child.sendline('13')
    child.expect_exact('(PHYSICAL_START) [0x1000000] (NEW) ')
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    config = (tmp_path / '.config').read_text()
    assert 'CONFIG_DEFAULT_HOSTNAME="otherhost"\n' in config
    assert 'CONFIG_LOG_BUF_SHIFT=13\n' in config
    child.logfile_read.close()
    transcript = (tmp_path / 'transcript').read_text()
    # the terminal echoes what is typed; conf itself echoes nothing it
    # reads, and prints nothing while it answers again
    assert transcript.count('myhost') == 1
    assert transcript.count('(NEW) <') == 1
    assert transcript.count('(DEFAULT_HOSTNAME)') == 2


def test_ctrl_c_leaves_config(series, demo, tmp_path):
    child = spawn(series.patched, demo, tmp_path)
    answer_and_go_back(child)
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.signalstatus == 2
    assert (tmp_path / '.config').read_bytes() == demo[2]
    assert not (tmp_path / '.config.old').exists()


HINT = "* Type '<' at a question to go back to the previous one"


def spawn_script(args, cwd, env, tmp_path):
    child = pexpect.spawn(args[0], args[1:], cwd=str(cwd), env=env,
                          encoding='utf-8', timeout=60,
                          preexec_fn=lambda: signal.signal(signal.SIGINT,
                                                           signal.SIG_DFL))
    child.logfile_read = open(tmp_path / 'transcript', 'w')
    return child


def test_demo_tells_of_back_at_a_terminal(series, tmp_path):
    """make demo (scripts/demo) at a terminal says, before the first
    question, that '<' goes back, and ends naming the .config it wrote;
    the stock conf is not said to have '<'."""
    child = spawn_script([conflib.script('demo'), *series.source_args],
                         conflib.TOP, conflib.shell_env(), tmp_path)
    child.expect_exact(HINT)
    assert '(NEW)' not in child.before
    child.expect_exact('(DEFAULT_HOSTNAME) [(none)] (NEW) ')
    child.sendline('myhost')
    child.expect_exact('(LOG_BUF_SHIFT) [17] (NEW) ')
    child.sendeof()
    child.expect_exact('# configuration written to .config')
    child.expect_exact('demo: configuration written to %s'
                       % conflib.shown_demo_config())
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    with open(os.path.join(conflib.BUILD, 'demo', '.config')) as f:
        assert 'CONFIG_DEFAULT_HOSTNAME="myhost"\n' in f.read()
    stock = spawn_script([conflib.script('demo'), *series.source_args,
                          '--stock'], conflib.TOP, conflib.shell_env(),
                         tmp_path)
    stock.expect_exact('(DEFAULT_HOSTNAME) [(none)] (NEW) ')
    assert "'<'" not in stock.before
    stock.sendintr()
    stock.expect(pexpect.EOF)
    stock.close()


def test_oldconfig_tells_of_back_at_a_terminal(real612, tmp_path):
    """scripts/oldconfig at a terminal says, before conf's first question,
    that '<' goes back (on pipes its output is make oldconfig's:
    tests/test_real_tree.py)."""
    config = tmp_path / '.config'
    config.write_bytes(real612.old_config())
    child = spawn_script([conflib.script('oldconfig'), '--conf',
                          real612.base.patched, real612.path], tmp_path,
                         conflib.shell_env(KCONFIG_CONFIG=str(config)),
                         tmp_path)
    child.expect_exact(HINT)
    assert '(NEW)' not in child.before
    child.expect_exact('(NEW) ')
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.signalstatus == 2
    assert config.read_bytes() == real612.old_config()
