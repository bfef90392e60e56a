# SPDX-License-Identifier: GPL-2.0
"""make dist: the drop-in files work in a pristine tree's own 'make
oldconfig' (with '<'), and the tarball holds the series as it is."""

import os
import random
import shutil
import subprocess
import tarfile

import conflib

DIST = os.path.join(conflib.TOP, 'scripts', 'dist')


def make_dist(tmp_path):
    out = tmp_path / 'dist'
    subprocess.run([DIST, '--out', str(out)], check=True, capture_output=True)
    return out


def test_tarball_is_the_series(series, tmp_path):
    out = make_dist(tmp_path)
    with tarfile.open(out / ('kconfig-back-%s.tar.gz' % series.series)) as t:
        t.extractall(tmp_path / 'x')
    got = tmp_path / 'x' / ('kconfig-back-%s' % series.series)
    want = os.path.join(conflib.TOP, 'patches', series.series)
    parts = [p for p in ('back', 'journal')
             if os.path.isdir(os.path.join(want, p))]
    assert sorted(os.listdir(got)) == parts
    for p in parts:
        assert sorted(os.listdir(got / p)) == sorted(
            f for f in os.listdir(os.path.join(want, p)) if f.endswith('.patch'))
        for f in os.listdir(got / p):
            assert ((got / p / f).read_bytes() ==
                    open(os.path.join(want, p, f), 'rb').read())
    readme = (out / 'README').read_text()
    assert 'git am' in readme and 'patch -p1' in readme


def test_drop_in_conf_c(real, tmp_path):
    out = make_dist(tmp_path)
    drop_in = out / ('kconfig-back-%s' % real.base.version)
    files = sorted(os.listdir(drop_in))
    # conf.c, and the other files a series changes: symbol.c on mainline,
    # confdata.c and lkc_proto.h with a journal
    assert 'conf.c' in files
    assert files == ['conf.c'] or (real.base.series == 'mainline' or
                                   real.base.has_journal)
    tree = tmp_path / 'linux'
    subprocess.run(['cp', '-al', real.path, str(tree)], check=True)
    for name in files:
        with open(os.path.join(real.base.path, 'patched', 'scripts',
                               'kconfig', name), 'rb') as f:
            assert (drop_in / name).read_bytes() == f.read()
        target = tree / 'scripts' / 'kconfig' / name
        target.unlink()                 # do not write through the hard link
        shutil.copy(drop_in / name, target)
    env = {k: v for k, v in os.environ.items()
           if k not in ('MAKEFLAGS', 'MAKELEVEL', 'MFLAGS', 'MAKEOVERRIDES')}
    old = real.old_config()
    rng = random.Random(3)
    keys = ['y', '<', 'n', '', '<', '<', '']
    keys += [rng.choice(['', '', 'y', 'n']) for _ in range(700)]
    data = ''.join(k + '\n' for k in keys).encode()
    cfg = tree / '.config'
    cfg.write_bytes(old)
    made = subprocess.run(['make', '-s', 'oldconfig'], cwd=tree, input=data,
                          env=env, capture_output=True)
    made_cfg = cfg.read_bytes()
    assert made.returncode == 0, made.stderr[-2000:]
    assert made.stdout.count(b'* Back to the previous question') == 3
    assert made.stdout.count(b'* No earlier answer to go back to') == 0
    # the same as the patched conf built by this project, run on that tree
    cfg.write_bytes(old)
    ours = subprocess.run([os.path.join(conflib.TOP, 'scripts', 'oldconfig'),
                           '--conf', real.base.patched, str(tree), ],
                          input=data, env=env, capture_output=True)
    assert ours.returncode == 0
    assert cfg.read_bytes() == made_cfg
    shutil.rmtree(tree)
