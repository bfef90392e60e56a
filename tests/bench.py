# SPDX-License-Identifier: GPL-2.0
"""make bench: the stock and the patched conf side by side, in one run, on
the real x86 trees of tests/conftest.py's REAL_TREES with their default old
configs (7.3 and 6.12: Debian's 6.1 amd64 config, about 1000 and 540 NEW
questions; 7.2: Debian's 6.12 one; 6.1 and 5.10: their own, thinned):

- instructions (valgrind callgrind, stable on a noisy machine) and conf's own
  peak resident memory for --olddefconfig, --syncconfig and a whole
  --oldconfig session without '<', and their ratios; and the oldconfig
  session again with KCONFIG_JOURNAL, on the bases that have it;
- going back, on 7.3 and 6.12: seeded sessions of random valid answers
  (30% Enter) in oldconfig with '<' after about 100, 300 and 500 answers,
  sessions that are mostly Enter (95%) in oldaskconfig, which asks every
  question, with '<' after about 500 and 2000, and three '<' in a row
  after about 300 random answers.  The CPU time conf takes from the '<'
  to the question asked again (the patched conf puts back the values it
  read and answers again every answer before the one undone) is set
  beside stock's own CPU time for the same answers piped to it at once,
  from its first question on, measured in the same run; and '<' at the
  second question, which answers nothing again: one reset.  CPU time
  (/proc/PID/schedstat), not the clock: the ratio holds on a loaded
  machine;
- the journal's cost on the clock, on 6.12, on a base that has the
  journal: a piped --oldconfig session of 600 answers (Debian's 6.1 amd64
  config thinned, about 950 NEW questions) with the patched conf, with
  KCONFIG_JOURNAL (a new file each time, in the run's folder) and without,
  runs of the two interleaved in the same run: wall time, the ratio and
  the cost per line of the journal (each answer kept is a write, an
  fstat, an lstat and an fdatasync that the instruction count does not
  show).

Not part of 'make check': it takes minutes.  Prints Markdown tables and
writes them to build/bench.md."""

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

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), 'verify'))
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

    def session(self, conf, extra_env=None, mode='--oldconfig'):
        d = self._rundir()
        s = conflib.Session([conf, mode, 'Kconfig'], d,
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


def valid_answer(rng, q, p_enter=0.7):
    """A random answer that the question takes: Enter with probability
    p_enter, else one of its options."""
    if q.kind == 'str' or rng.random() < p_enter:
        return ''
    return rng.choice(q.options)


def cpu(s):
    """The CPU time conf has used so far, in seconds (ns resolution): what
    other processes on a loaded machine take does not count."""
    with open('/proc/%d/schedstat' % s.p.pid) as f:
        return int(f.read().split()[0]) / 1e9


def back_times(bench, conf, stock, seed, targets=(100, 300, 500),
               extra_env=None, mode='--oldconfig', p_enter=0.7, run=1):
    """One seeded session on the patched conf, run '<' in a row after about
    each target number of answers (the answers undone are then given
    again); and stock fed the answers that survive each run, all at once,
    timed from its first question.  Returns {target: (seconds back,
    seconds stock)}; the target 1 is '<' at the second question (one
    reset, nothing answered again)."""
    rng = random.Random(seed)
    at = sorted({1} | {t + rng.randrange(20) for t in targets})
    s, d = bench.session(conf, extra_env, mode)
    settle(s)
    sent = []
    back = {}
    while at:
        q = conflib.parse_question(s.out[s.mark:].decode(errors='replace'))
        if len(sent) == at[0]:
            n = min(run, len(sent))
            t0 = cpu(s)
            for _ in range(n):
                s.send('<')
                settle(s)
            back[at.pop(0) - n + 1] = cpu(s) - t0
            for a in sent[len(sent) - n:]:
                s.send(a)
                settle(s)
        else:
            sent.append(valid_answer(rng, q, p_enter))
            s.send(sent[-1])
        if settle(s) is None or s.p.poll() is not None:
            break
    s.kill()
    shutil.rmtree(d)
    # stock, from its first question, fed what survived each '<'
    s, d = bench.session(stock, extra_env, mode)
    settle(s)
    fed, total, result = 0, 0.0, {}
    for n in sorted(back):
        s.p.stdin.write(''.join(a + '\n' for a in sent[fed:n - 1]).encode())
        s.p.stdin.flush()
        fed = n - 1
        t0 = cpu(s)
        settle(s)
        total += cpu(s) - t0
        result[n] = (back[n], total)
    s.kill()
    shutil.rmtree(d)
    return result


def journal_wall(bench, conf, n=600, pairs=7):
    """Wall time of a piped --oldconfig session of n answers, without and
    with KCONFIG_JOURNAL, pairs runs of each, interleaved: ([seconds
    without], [seconds with], journal lines, NEW questions)."""
    data = answers(2, n)
    without, journaled, lines, new = [], [], 0, 0
    for i in range(2 * pairs):
        d = bench._rundir()
        env = dict(bench.env)
        if i % 2:
            env['KCONFIG_JOURNAL'] = os.path.join(d, 'journal')
        t0 = time.monotonic()
        r = subprocess.run([conf, '--oldconfig', 'Kconfig'], input=data,
                           cwd=d, env=env, capture_output=True, check=True)
        t = time.monotonic() - t0
        new = r.stdout.count(b'(NEW)')
        if i % 2:
            journaled.append(t)
            with open(env['KCONFIG_JOURNAL'], 'rb') as f:
                lines = f.read().count(b'\n')
        else:
            without.append(t)
        shutil.rmtree(d)
    return without, journaled, lines, new


def journal_syscalls(bench, conf, n=600):
    """The wall time a journaled session of n answers spends in the
    journal's system calls (strace -c -w: fdatasync, and the fstat and
    lstat of each answer; not write(), which stdout shares), and their
    count: {name: (calls, seconds)}.  None without strace."""
    if not shutil.which('strace'):
        return None
    d = bench._rundir()
    env = dict(bench.env, KCONFIG_JOURNAL=os.path.join(d, 'journal'))
    log = os.path.join(d, 'strace.log')
    subprocess.run(['strace', '-c', '-w', '-o', log, '-e',
                    'trace=fdatasync,fstat,newfstatat,lstat', conf,
                    '--oldconfig', 'Kconfig'], input=answers(2, n), cwd=d,
                   env=env, capture_output=True, check=True)
    calls = {}
    with open(log) as f:
        for line in f:
            m = re.match(r'\s*[\d.]+\s+([\d.]+)\s+\d+\s+(\d+)\s+(?:\d+\s+)?'
                         r'(\w+)$', line)
            if m and m.group(3) != 'total':
                calls[m.group(3)] = (int(m.group(2)), float(m.group(1)))
    shutil.rmtree(d)
    return calls


def pct(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p / 100 * (len(v) - 1))))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--samples', type=int, default=10,
                    help="seeded sessions with '<' per base (default 10)")
    ap.add_argument('--bases', help='only these lines of REAL_TREES, '
                    'comma-separated (e.g. 7.3,6.12; default: all)')
    ap.add_argument('--out', default=os.path.join(conflib.BUILD, 'bench.md'))
    ap.add_argument('--journal-only', action='store_true',
                    help="only the journal's cost on the clock (6.12)")
    args = ap.parse_args()

    work = tempfile.mkdtemp()
    benches = {}
    from conftest import REAL_TREES, RealTree
    for version, (name, olds) in REAL_TREES.items():
        if args.bases and version not in args.bases.split(','):
            continue
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
    if not args.journal_only:
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
    if base.has_journal:
        from conftest import thin_config
        jbench = Bench(bench.tree, bench.env, thin_config(bench.old), work)
        n = 600
        without, journaled, jlines, new = journal_wall(jbench, base.patched, n)
        a, b = statistics.median(without), statistics.median(journaled)
        fs = subprocess.run(['stat', '-f', '-c', '%T', work],
                            capture_output=True, text=True).stdout.strip()
        pairs = statistics.median(y / x for x, y in zip(without, journaled))
        out('| base | piped oldconfig, %d answers | runs | without journal, '
            'median | with KCONFIG_JOURNAL, median | ratio of the medians | '
            'median ratio of the pairs | per journal line |' % n)
        out('|---|---|---:|---:|---:|---:|---:|---:|')
        out('| %s | %d NEW questions, %d journal lines | %d + %d | %.0f ms '
            '(%.0f-%.0f) | %.0f ms (%.0f-%.0f) | %.3f | %.3f | %+.2f ms |' % (
                base.version, new, jlines, len(without), len(journaled),
                1000 * a, 1000 * min(without), 1000 * max(without),
                1000 * b, 1000 * min(journaled), 1000 * max(journaled),
                b / a, pairs, 1000 * (b - a) / jlines))
        out()
        out('(Wall time, runs interleaved; the journal in the run\'s folder '
            'on %s, written and fdatasync()ed at each answer.  Debian\'s 6.1 '
            '%s config with one symbol in twenty removed; the questions '
            'after the %d answers take their defaults at the end of the '
            'input, in both.)' % (fs, FLAVOUR, n))
        out()
        calls = journal_syscalls(jbench, base.patched, n)
        if calls:
            out('In the journal\'s fdatasync, fstat and lstat calls, one '
                'journaled session (strace -c -w, the clock; the fstat '
                'calls include the parse\'s): %s; %.2f ms a journal line.' % (
                    ', '.join('%s %d calls %.0f ms' % (k, c, 1000 * t)
                              for k, (c, t) in sorted(calls.items())),
                    1000 * sum(t for _, t in calls.values()) / jlines))
            out()
    if not args.journal_only:
        starts = [start_time(bench, c) for c in (base.stock, base.patched) * 2]
        start = statistics.median(starts)
        out('One start of conf on 6.12 (parse to the first question), median of '
            '%d: %.0f ms.' % (len(starts), start * 1000))
        out()
        out("| base | session | '<' after | samples | back p50 | back p95 | "
            'stock p50 | stock p95 | back / stock, median of the sessions |')
        out('|---|---|---|---:|---:|---:|---:|---:|---:|')
        # random answers (30% Enter) in oldconfig; mostly Enter (95%) in
        # oldaskconfig, which asks every question; three '<' in a row
        scenarios = (
            ('random answers', '--oldconfig', 0.3, (100, 300, 500), 1,
             args.samples),
            ('mostly Enter, make config', '--oldaskconfig', 0.95, (500, 2000),
             1, max(3, args.samples // 3)),
            ("random answers, three '<' in a row", '--oldconfig', 0.3, (300,),
             3, max(3, args.samples // 2)))
        for version in ('7.3', '6.12'):
            if version not in benches:
                continue
            vbase, vbench = benches[version]
            for what, mode, p_enter, targets, run, samples in scenarios:
                by = {}
                for seed in range(1, samples + 1):
                    for n, times in back_times(
                            vbench, vbase.patched, vbase.stock, seed, targets,
                            mode=mode, p_enter=p_enter, run=run).items():
                        if n == 1 and run > 1:
                            continue
                        by.setdefault(n if n == 1 else (n + run - 1) // 100 * 100,
                                      []).append(times)
                for n, times in sorted(by.items()):
                    b = [t[0] for t in times]
                    st = [t[1] for t in times]
                    after = ('the 2nd question (one reset)' if n == 1 else
                             '%d-%d answers' % (n, n + 19))
                    out('| %s | %s | %s | %d | %.0f ms | %.0f ms | %.0f ms | '
                        '%.0f ms | %s |' % (
                            vbase.version, what, after, len(times),
                            1000 * pct(b, 50), 1000 * pct(b, 95),
                            1000 * pct(st, 50), 1000 * pct(st, 95),
                            '%.2f' % statistics.median(x / y for x, y in times)
                            if n > 1 else '-'))
    shutil.rmtree(work)
    with open(args.out, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    print('\nwritten to %s' % args.out)


if __name__ == '__main__':
    main()
