# SPDX-License-Identifier: GPL-2.0
"""The on-the-spot check of a series on kconfig sources patches/known-bases
does not know (scripts/build runs it; scripts/check-releases too): the
stock and the patched conf built from that very tree must pass

- the tree's kconfig test suite with the patched conf, the series' own
  cases included (as 'make testconfig' runs it);
- seeded random answer streams without '<', in every mode: the patched
  conf byte-identical to the stock one (stdout, stderr, exit status,
  .config, auto.conf);
- seeded sessions with random answers and runs of '<': the same questions
  in the same order, and the same .config, as the stock conf fed only the
  answers that survived;

the last two on the demo Kconfig and every kconfig test tree of the tree,
and, for a whole kernel tree, on its own Kconfig too, with the environment
its make gives conf and, as the old config, the tree's own alldefconfig
(made by the stock conf) without one symbol in ten, which leaves a hundred
or more NEW questions (seeded: the verdict depends only on the tree).
Prints one line: the figures, or the first check that failed.  With
--progress NAME, lines on stderr say what it is doing, at each step and
at least every 30 s (a step can take minutes).  Exit
status 0 when every check passed, 1 when one failed, 2 when one did not
finish in time (no verdict: scripts/build keeps none)."""

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conflib  # noqa: E402

# in the real tree, the questions where going back is most likely to go
# wrong (as tests/test_real_tree.py)
FOCUS = r'choice|ZRAM|ZSWAP|_DEF_|DEFAULT'


class Failed(Exception):
    pass


class Progress:
    """Lines on stderr, 'NAME: checking on the spot, N s: WHAT': one when
    a step begins, and one when nothing was said for EVERY seconds (a
    step, such as the sessions on a whole tree's own Kconfig, can take
    minutes).  Silent without a NAME."""

    EVERY = 20

    def __init__(self, name):
        self.name = name
        self.start = self.last = time.monotonic()
        self.what = 'starting'
        self.lock = threading.Lock()
        self.done = threading.Event()
        if name:
            threading.Thread(target=self._beat, daemon=True).start()

    def _say(self):
        self.last = time.monotonic()
        sys.stderr.write('%s: checking on the spot, %d s: %s\n'
                         % (self.name, self.last - self.start, self.what))
        sys.stderr.flush()

    def step(self, what):
        """A step begins: said at once."""
        with self.lock:
            self.what = what
            if self.name:
                self._say()

    def where(self, what):
        """Where the step is: said with the next line."""
        with self.lock:
            self.what = what

    def _beat(self):
        while not self.done.wait(1):
            with self.lock:
                if time.monotonic() - self.last >= self.EVERY:
                    self._say()

    def stop(self):
        self.done.set()


PROGRESS = Progress(None)


def clean_env(environ):
    """The environment of the checks: none of the person's KCONFIG_*
    settings (a KCONFIG_JOURNAL, for one) or make's."""
    env = {k: v for k, v in environ.items()
           if not k.startswith('KCONFIG_') and k not in (
               'srctree', 'objtree', 'CONFIG_', 'MAKEFLAGS', 'MAKELEVEL',
               'MFLAGS', 'MAKEOVERRIDES')}
    return env


def prefixed_env(env):
    """The environment of the runs on the demo and the test trees, whose
    .config files name symbols CONFIG_*: the conf of Buildroot (built with
    no prefix) and crosstool-ng's (CT_) take the prefix the variable
    CONFIG_ names, as Linux's does.  KCONFIG_AUTOCONFIG names Linux's
    default: Buildroot's conf has none (its make always names one)."""
    return dict(env, CONFIG_='CONFIG_',
                KCONFIG_AUTOCONFIG='include/config/auto.conf')


def suite(tree, stock_tree, env, kdir='scripts/kconfig'):
    """The tree's kconfig tests with the patched conf: (passed, the cases
    of the series); None when the sources have no kconfig suite (Buildroot,
    coreboot and crosstool-ng keep none, nor does a series for them)."""
    tests = kdir + '/tests'
    if not os.path.isdir(os.path.join(tree, tests)):
        return None
    # a test of a conf that loops fails, rather than hang the suite
    env = dict(env, PYTHONPATH=os.path.dirname(os.path.abspath(__file__)))
    r = subprocess.run([sys.executable, '-B', '-m', 'pytest', '-v',
                        '-p', 'no:cacheprovider', '-p', 'suite_timeout',
                        tests],
                       cwd=tree, capture_output=True, text=True, timeout=300,
                       env=env)
    results = dict(re.findall(r'^' + re.escape(tests) + r'/(\S+) (PASSED|'
                              r'FAILED|ERROR)', r.stdout, re.M))
    failed = sorted(t for t, o in results.items() if o != 'PASSED')
    if r.returncode != 0 or failed or not results:
        raise Failed('the kconfig test suite: %d of %d failed (%s)'
                     % (len(failed), len(results),
                        ', '.join(failed[:5]) or r.stdout[-300:].strip()))
    stock_tests = os.path.join(stock_tree, tests)
    stock = set(os.listdir(stock_tests) if os.path.isdir(stock_tests)
                else [])
    series = [t for t in results if t.split('/')[0] not in stock]
    if not series:
        raise Failed('the kconfig test suite: no case of the series in it')
    return len(results), len(series)


def name(srctree, tree):
    return os.path.relpath(srctree, tree) if srctree.startswith(tree) \
        else 'the demo'


def differential(stock, patched, trees, tree, work, seeds):
    runs = 0
    PROGRESS.step("runs without '<' on %d trees" % len(trees))
    for i, (kconfig, srctree, cfg) in enumerate(trees):
        PROGRESS.where("runs without '<', on %s (%d of %d)"
                       % (name(srctree, tree), i + 1, len(trees)))
        for mode in conflib.INTERACTIVE_MODES + conflib.other_modes(stock):
            n = seeds if mode in conflib.INTERACTIVE_MODES else 1
            problem = conflib.compare_streams(stock, patched, mode, kconfig,
                                              srctree, work, cfg, range(n))
            if problem:
                raise Failed("without '<' on %s: %s"
                             % (name(srctree, tree), problem))
            runs += n
    return runs


def equivalence(stock, patched, trees, tree, work, env, seeds):
    sessions = backs = 0
    PROGRESS.step("sessions with '<' on %d trees" % len(trees))
    for i, (kconfig, srctree, cfg) in enumerate(trees):
        PROGRESS.where("sessions with '<', on %s (%d of %d)"
                       % (name(srctree, tree), i + 1, len(trees)))
        for mode in conflib.INTERACTIVE_MODES:
            for seed in range(seeds):
                t, problems = conflib.check_equivalence(
                    patched, stock, mode, kconfig, srctree, work, cfg, env,
                    seed, p_back=0.3, timeout=60)
                if problems:
                    raise Failed("with '<' on %s, %s seed %d: %s"
                                 % (name(srctree, tree), mode, seed,
                                    '; '.join(problems)))
                sessions += 1
                backs += t.backs
    return sessions, backs


def thin(cfg, one_in=10):
    """A config without one symbol in one_in (chosen by a hash of the
    name)."""
    out = []
    for line in cfg.decode().splitlines(True):
        m = re.match(r'(?:# )?CONFIG_(\w+)[= ]', line)
        if m and zlib.crc32(m.group(1).encode()) % one_in == 0:
            continue
        out.append(line)
    return ''.join(out).encode()


def answers(seed, n=700):
    rng = random.Random(seed)
    pool = [''] * 6 + ['y', 'n', 'm', '?', 'x', '1', '2']
    return ''.join(rng.choice(pool) + '\n' for _ in range(n)).encode()


def real_tree(stock, patched, kernel, env, work, runs, sessions):
    """The tree's own Kconfig: (runs, sessions, NEW questions, answers)."""
    PROGRESS.step("the tree's own Kconfig: its alldefconfig, %d runs "
                  "without '<' and %d sessions with '<'" % (runs, sessions))
    r = conflib.run_conf(stock, '--alldefconfig', 'Kconfig', kernel, work,
                         None, b'', env, timeout=120)
    if r.returncode != 0 or not r.config:
        raise Failed('the stock conf gave no alldefconfig of the tree: %s'
                     % r.stderr[-300:].decode(errors='replace'))
    old = thin(r.config)
    new = 0
    for seed in range(runs):
        PROGRESS.where("the tree's own Kconfig: run without '<' %d of %d"
                       % (seed + 1, runs))
        diff, s = conflib.compare(stock, patched, '--oldconfig', 'Kconfig',
                                  kernel, work, old, answers(seed), env)
        if diff:
            raise Failed("without '<' on the tree's own Kconfig, seed %d: %s"
                         ' differ' % (seed, diff))
        new = max(new, s.stdout.count(b'(NEW)'))
    survived = 0
    for seed in range(sessions):
        PROGRESS.where("the tree's own Kconfig: session with '<' %d of %d"
                       % (seed + 1, sessions))
        t, problems = conflib.check_equivalence(
            patched, stock, '--oldconfig', 'Kconfig', kernel, work, old, env,
            seed, p_back=0.05, max_backs=60, focus=FOCUS, timeout=300)
        if problems:
            raise Failed("with '<' on the tree's own Kconfig, seed %d: %s"
                         % (seed, '; '.join(problems)))
        survived += len(t.survived)
    return new, survived


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--stock', required=True, help='the stock conf')
    ap.add_argument('--patched', required=True, help='the patched conf')
    ap.add_argument('--tree', required=True,
                    help='the patched kconfig tree (with its tests)')
    ap.add_argument('--stock-tree', required=True,
                    help='the stock kconfig tree (to tell the cases of the '
                    'series)')
    ap.add_argument('--kconfig-dir', default='scripts/kconfig',
                    help="the trees' kconfig folder (support/kconfig, ...)")
    ap.add_argument('--kernel', help='the whole kernel tree')
    ap.add_argument('--env', help="the environment its make gives conf "
                    "(NUL-separated, from scripts/oldconfig --print-env)")
    ap.add_argument('--seeds', type=int, default=10,
                    help='streams without < per tree and interactive mode')
    ap.add_argument('--sessions', type=int, default=4,
                    help='sessions with < per tree and interactive mode')
    ap.add_argument('--real-runs', type=int, default=2)
    ap.add_argument('--real-sessions', type=int, default=2)
    ap.add_argument('--progress', metavar='NAME',
                    help='say on stderr what it does, as NAME')
    args = ap.parse_args()
    global PROGRESS
    PROGRESS = Progress(args.progress)
    start = time.monotonic()
    # every conf run here, with an env of its own or not, gets none of them
    env = clean_env(os.environ)
    os.environ.clear()
    os.environ.update(env)
    stock = os.path.abspath(args.stock)
    patched = os.path.abspath(args.patched)
    tree = os.path.abspath(args.tree)
    try:
        with tempfile.TemporaryDirectory() as work:
            PROGRESS.step('the kconfig test suite')
            got = suite(tree, args.stock_tree, env, args.kconfig_dir)
            trees = conflib.fixture_trees(tree)
            os.environ.update(prefixed_env({}))
            runs = differential(stock, patched, trees, tree, work,
                                args.seeds)
            sessions, backs = equivalence(stock, patched, trees, tree, work,
                                          prefixed_env(env), args.sessions)
            own = 'not in these sources'
            if args.kernel:
                with open(args.env, 'rb') as f:
                    kenv = clean_env(dict(v.split('=', 1) for v in
                                          f.read().decode().split('\0') if v))
                new, survived = real_tree(stock, patched,
                                          os.path.abspath(args.kernel), kenv,
                                          work, args.real_runs,
                                          args.real_sessions)
                runs += args.real_runs
                sessions += args.real_sessions
                own = ("%d runs and %d sessions (%d NEW questions, %d answers"
                       " kept; old config: its alldefconfig without one "
                       "symbol in ten)" % (args.real_runs, args.real_sessions,
                                            new, survived))
    except (Failed, ValueError) as e:
        PROGRESS.stop()
        print('failed: %s' % e)
        return 1
    except (conflib.Hang, subprocess.TimeoutExpired) as e:
        PROGRESS.stop()
        # a busy machine, maybe: no verdict to keep
        print('did not finish: %s' % e)
        return 2
    PROGRESS.stop()
    if got is None:
        suite_figures = 'no kconfig suite in these sources'
    else:
        suite_figures = ("kconfig suite %d/%d passed (%d of the series' "
                         "cases)" % (got[0], got[0], got[1]))
    print("%s; %d runs "
          "without '<' byte-identical to stock and %d sessions with '<' "
          "(%d '<') equivalent, on the demo and %d kconfig test trees; its "
          "own Kconfig: %s; %d s"
          % (suite_figures, runs, sessions, backs, len(trees) - 1, own,
             time.monotonic() - start))
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
