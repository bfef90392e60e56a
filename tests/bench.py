# SPDX-License-Identifier: GPL-2.0
"""make bench: the stock and the patched conf side by side, in one run, on
the real x86 trees of tests/conftest.py's REAL_TREES with their default old
configs (7.3 and 6.12: Debian's 6.1 amd64 config, about 1000 and 540 NEW
questions; 7.2: Debian's 6.12 one; 6.1 and 5.10: their own, thinned):

- instructions (valgrind callgrind, stable on a noisy machine) and conf's own
  peak resident memory for --olddefconfig, --syncconfig and a whole
  --oldconfig session without '<', and their ratios; and the oldconfig
  session again with KCONFIG_JOURNAL, on the bases that have it;
- going back: the time from '<' to the question asked again, after 100 to
  119 and after 480 to 499 answers (of about 515 read when every answer is
  Enter), at seeded positions, without and with KCONFIG_JOURNAL, and its ratio to one start
  of conf (parsing the tree up to the first question) measured in the same run.

Not part of 'make check': it takes minutes.  Prints a Markdown table and
writes it to build/bench.md."""

import argparse
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conflib  # noqa: E402

HWM_SRC = os.path.join(conflib.TOP, 'kconfig', 'bench', 'hwm.c')
FLAVOUR = 'amd64_none_amd64'


def answers(seed, n=800):
    """Answers without '<': mostly Enter, some explicit values."""
    rng = random.Random(seed)
    pool = [''] * 8 + ['y', 'n', 'm']
    return ''.join(rng.choice(pool) + '\n' for _ in range(n)).encode()


class Bench:
    def __init__(self, tree, env, old, work):
        self.tree = tree
        self.env = dict(env, srctree=tree)
        self.old = old
        self.work = work
        self.hwm = os.path.join(work, 'hwm.so')
        subprocess.run(['gcc', '-shared', '-fPIC', '-O2', '-o', self.hwm,
                        HWM_SRC], check=True)

    def _rundir(self):
        d = tempfile.mkdtemp(dir=self.work)
        with open(os.path.join(d, '.config'), 'wb') as f:
            f.write(self.old)
        return d

    def instructions(self, conf, mode, data, extra_env=None):
        d = self._rundir()
        log = os.path.join(d, 'callgrind.log')
        subprocess.run(['valgrind', '--tool=callgrind',
                        '--callgrind-out-file=/dev/null', '--log-file=' + log,
                        conf, mode, 'Kconfig'], input=data, cwd=d,
                       env=dict(self.env, **(extra_env or {})),
                       capture_output=True, check=True)
        with open(log) as f:
            m = re.search(r'Collected : (\d+)', f.read())
        shutil.rmtree(d)
        return int(m.group(1))

    def peak_kb(self, conf, mode, data, extra_env=None):
        d = self._rundir()
        out = os.path.join(d, 'hwm')
        env = dict(self.env, LD_PRELOAD=self.hwm, KCONFIG_BACK_HWM=out,
                   **(extra_env or {}))
        subprocess.run([conf, mode, 'Kconfig'], input=data, cwd=d, env=env,
                       capture_output=True, check=True)
        with open(out) as f:
            kb = int(f.read())
        shutil.rmtree(d)
        return kb

    def session(self, conf, extra_env=None):
        d = self._rundir()
        s = conflib.Session([conf, '--oldconfig', 'Kconfig'], d,
                            dict(self.env, **(extra_env or {})), timeout=900)
        return s, d


def settle(s):
    """Spin until conf waits for input again (or exits); return the time."""
    while True:
        if s._drain(0):
            continue
        if s.p.poll() is not None or s._reading_stdin():
            while s._drain(0):
                pass
            return time.monotonic()


def start_time(bench, conf):
    s, d = bench.session(conf)
    t0 = time.monotonic()
    t = settle(s) - t0
    s.kill()
    shutil.rmtree(d)
    return t


def back_latencies(bench, conf, seed, targets=(100, 480), per_target=20,
                   extra_env=None):
    """'<' at seeded positions around each target number of answers."""
    rng = random.Random(seed)
    s, d = bench.session(conf, extra_env)
    settle(s)
    answered = 0
    result = {}
    for target in targets:
        positions = sorted(target + rng.randrange(20) for _ in range(per_target))
        times = []
        for pos in positions:
            while answered < pos:
                s.send('')
                settle(s)
                answered += 1
            s.send('<')
            t0 = time.monotonic()
            times.append(settle(s) - t0)
            s.send('')          # answer again: the undone answer, offered
            settle(s)
        result[target] = times
    s.kill()
    shutil.rmtree(d)
    return result


def pct(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p / 100 * (len(v) - 1))))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--samples', type=int, default=40,
                    help="'<' timings around each number of answers (default 40)")
    ap.add_argument('--out', default=os.path.join(conflib.BUILD, 'bench.md'))
    args = ap.parse_args()

    work = tempfile.mkdtemp()
    benches = {}
    from conftest import REAL_TREES, RealTree
    for version, (name, olds) in REAL_TREES.items():
        tree = os.path.join(conflib.BUILD, 'src', name)
        base = next((b for b in conflib.built_bases()
                     if b.version.startswith(version + '.') and b.has_series),
                    None)
        if base is None or not os.path.isdir(tree):
            continue
        envfile = os.path.join(conflib.BUILD, 'bench-%s.env' % version)
        subprocess.run([os.path.join(conflib.TOP, 'scripts', 'oldconfig'),
                        '--print-env', envfile, tree], check=True)
        with open(envfile) as f:
            env = dict(v.split('=', 1) for v in f.read().split('\0') if v)
        old = RealTree(tree, env, base, olds).old_config(FLAVOUR)
        benches[version] = (base, Bench(tree, env, old, work))
    base, bench = benches['6.12']
    data = answers(1)
    lines = []

    def out(line=''):
        print(line, flush=True)
        lines.append(line)

    cpu = next((l.split(':', 1)[1].strip() for l in open('/proc/cpuinfo')
                if l.startswith('model name')), platform.machine())
    out('Measured %s on %s (%d cores), Debian %s, gcc 12; the x86 trees of '
        "Debian's linux-source packages, Debian's 6.1 %s config." % (
            time.strftime('%Y-%m-%d'), cpu, os.cpu_count(),
            open('/etc/debian_version').read().strip(), FLAVOUR))
    out()
    out('| base | run | stock instructions | patched | ratio | stock peak RSS | '
        'patched | difference |')
    out('|---|---|---:|---:|---:|---:|---:|---:|')
    journal = {'KCONFIG_JOURNAL': 'journal'}
    for version, (vbase, vbench) in sorted(benches.items(), reverse=True):
        for mode, label, env in (
                ('--olddefconfig', 'olddefconfig', None),
                ('--syncconfig', 'syncconfig, answers piped', None),
                ('--oldconfig', 'oldconfig, answers piped, no <', None),
                ('--oldconfig', 'the same with KCONFIG_JOURNAL', journal)):
            if env and not vbase.has_journal:
                continue
            # both in the same environment (stock ignores KCONFIG_JOURNAL,
            # but every getenv() of the parse scans one variable more)
            a = vbench.instructions(vbase.stock, mode, data, env)
            b = vbench.instructions(vbase.patched, mode, data, env)
            ra = vbench.peak_kb(vbase.stock, mode, data, env)
            rb = vbench.peak_kb(vbase.patched, mode, data, env)
            out('| %s | %s | %d | %d | %.5f | %d kB | %d kB | %+d kB |' % (
                vbase.version, label, a, b, b / a, ra, rb, rb - ra))
    out()
    out('(7.3: Debian\'s 6.1 config, about 1000 NEW questions; 6.12: that '
        'config, about 540; 7.2: Debian\'s 6.12 config; 6.1 and 5.10: their '
        'own config with one symbol in twenty removed.  %d answers piped, '
        'mostly Enter.)' % data.count(b'\n'))
    out()
    starts = [start_time(bench, c) for c in (base.stock, base.patched) * 2]
    start = statistics.median(starts)
    lat = {}
    for label, env in (('', None), (', KCONFIG_JOURNAL', journal)):
        if env and not base.has_journal:
            continue
        for seed in (1, 2):
            for target, times in back_latencies(
                    bench, base.patched, seed, per_target=args.samples // 2,
                    extra_env=env).items():
                lat.setdefault((target, label), []).extend(times)
    out('One start of conf (parse to the first question), median of %d: '
        '%.0f ms.' % (len(starts), start * 1000))
    out()
    out("| '<' after | samples | p50 | p95 | max | p95 / one start |")
    out('|---|---:|---:|---:|---:|---:|')
    for (target, label), times in sorted(lat.items()):
        out('| %d-%d answers%s | %d | %.1f ms | %.1f ms | %.1f ms | %.2f%% |' % (
            target, target + 19, label, len(times), 1000 * pct(times, 50),
            1000 * pct(times, 95), 1000 * max(times),
            100 * pct(times, 95) / start))
    shutil.rmtree(work)
    with open(args.out, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    print('\nwritten to %s' % args.out)


if __name__ == '__main__':
    main()
