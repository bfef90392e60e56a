# SPDX-License-Identifier: GPL-2.0
"""patches/known-bases is what scripts/known-bases writes (the files each
series changes now, the sums of the releases whose sources are here), and
it notices a changed sum or a series that changes another file; the table
of scripts/check-releases goes into docs/bases.md between its markers."""

import hashlib
import os
import re
import shutil
import subprocess

import pytest

import conflib


def run(*args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


def project_copy(tmp_path):
    """The scripts, patches, build glue, tests, check on the spot and docs
    of the project in tmp_path/p (building in the project's build/, whose
    sources it reads)."""
    p = tmp_path / 'p'
    p.mkdir()
    for d in ('scripts', 'patches', 'kconfig', 'tests', 'verify', 'docs'):
        shutil.copytree(os.path.join(conflib.TOP, d), p / d, symlinks=True,
                        ignore=shutil.ignore_patterns('__pycache__'))
    return p


def lines(path):
    with open(path) as f:
        return [line.split('\t') for line in f.read().splitlines()
                if not line.startswith('#')]


def debian_releases():
    """The releases of patches/known-bases whose Debian sources are here
    (a Debian build, or build/releases)."""
    known = {row[0] for row in
             lines(os.path.join(conflib.TOP, 'patches', 'known-bases'))}
    here = {b.version for b in conflib.built_bases() if b.env.get('DEBIAN')}
    rel = os.path.join(conflib.BUILD, 'releases')
    if os.path.isdir(rel):
        here |= {r for r in os.listdir(rel)
                 if os.path.isfile(os.path.join(rel, r, 'src', 'Makefile'))}
    return sorted(known & here)


def test_known_bases_is_what_the_script_writes():
    here = debian_releases()
    r = run(os.path.join(conflib.TOP, 'scripts', 'known-bases'), '--check')
    assert r.returncode == 0, r.stderr
    m = re.search(r'and the sums of (\d+) releases', r.stderr)
    assert m and int(m.group(1)) >= len(here) >= 1, (r.stderr, here)


def test_known_bases_lists_the_files_each_series_changes():
    """Each release's lines name exactly the upstream files its series
    changes: '--- a/' in its patches, not the files they create."""
    rows = lines(os.path.join(conflib.TOP, 'patches', 'known-bases'))
    assert rows
    by = {}
    for release, series, _, name in rows:
        by.setdefault((release, series), []).append(name)
    for (release, series), names in by.items():
        changed, created = set(), set()
        for dirpath, _, files in os.walk(os.path.join(conflib.TOP, 'patches',
                                                      series)):
            for f in files:
                if not f.endswith('.patch') or f.startswith('0000-'):
                    continue
                with open(os.path.join(dirpath, f)) as p:
                    text = p.read()
                for old, new in re.findall(r'^--- (\S+)\n\+\+\+ (\S+)$', text,
                                           re.M):
                    if old == '/dev/null':
                        created.add(new[2:])
                    else:
                        changed.add(old[2:])
        assert names == sorted(changed - created) + ['(conf-sources)'], \
            release
        assert any(n.endswith('kconfig/conf.c') for n in names), release
        assert not any(n in created for n in names)


def test_known_bases_notices_a_change(tmp_path):
    """In a copy of the project: a sum edited by hand is found; so is a
    series that changes one more upstream file, and writing it again adds
    that file's sum to the releases whose sources are here."""
    here = debian_releases()
    if not here:
        pytest.skip('no Debian sources of a release of patches/known-bases')
    p = project_copy(tmp_path)
    kb = p / 'patches' / 'known-bases'
    script = str(p / 'scripts' / 'known-bases')
    env = dict(os.environ, BUILD_ROOT=conflib.BUILD)
    assert run(script, '--check', env=env).returncode == 0
    text = kb.read_text()
    row = next(r for r in lines(kb) if r[0] == here[0])
    kb.write_text(text.replace('\t'.join(row), '\t'.join(
        row[:2] + ['0' * 64] + row[3:]), 1))
    r = run(script, '--check', env=env)
    assert r.returncode == 1
    assert r.stderr.count('\n') == 1
    assert "patches/known-bases is not what scripts/known-bases writes " \
        "(first difference: " in r.stderr
    kb.write_text(text)
    # a series that changes one more file (one it does not change yet: util.c,
    # say): a patch of its own, at the end
    release, series = row[0], row[1]
    name = next('scripts/kconfig/' + f for f in ('menu.c', 'util.c', 'preprocess.c')
                if ['scripts/kconfig/' + f] not in [r[3:] for r in lines(kb)
                                                    if r[0] == release])
    src = next(d for d in (
        os.path.join(conflib.BUILD, 'releases', release, 'src'),
        *[b.pristine for b in conflib.built_bases()
          if b.version == release and b.env.get('DEBIAN')])
        if os.path.isdir(d))
    menu = os.path.join(src, name)
    with open(menu) as f:
        first = f.readline()
    (p / 'patches' / series / 'journal').mkdir(exist_ok=True)
    (p / 'patches' / series / 'journal' / '9999-menu.patch').write_text(
        'From: t\nSubject: [PATCH] menu\n\n---\n'
        'diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n'
        '@@ -1 +1,2 @@\n+/* menu */\n %s' % (name, name, name, name, first))
    r = run(script, '--check', env=env)
    assert r.returncode == 1
    assert name in r.stderr
    # written again, for the releases here (the others removed)
    others = sorted({r[0] for r in lines(kb)} - set(here))
    args = [a for o in others for a in ('--remove', o)]
    r = run(script, *args, env=env)
    assert r.returncode == 0, r.stderr
    with open(menu, 'rb') as f:
        menu_sum = hashlib.sha256(f.read()).hexdigest()
    assert [release, series, menu_sum, name] in lines(kb)
    assert run(script, '--check', env=env).returncode == 0
    # a series that does not apply to a release is refused
    patch = p / 'patches' / series / 'journal' / '9999-menu.patch'
    patch.write_text(patch.read_text().replace('\n ' + first, '\n x' + first))
    r = run(script, env=env)
    assert r.returncode == 1
    assert 'does not apply at fuzz 0 to ' in r.stderr


def test_check_releases_table_goes_into_the_docs(tmp_path):
    """The rows kept in build/releases, in version order, the kconfig
    sources groups of a line named a, b, ... (a line with one group only by
    its sum; a release not fetched in none), put into docs/bases.md between
    the markers with the date."""
    p = project_copy(tmp_path)
    broot = tmp_path / 'b'
    rows = {
        '6.12.118': ('trixie-security: 6.12.118-1', 'f' * 64, '6.12',
                     'verified: suite 36/36'),
        '6.12.115': ('trixie-security: 6.12.115-2', 'c' * 64, '6.12',
                     'rejected at fuzz 0: 6.12/back/0003, hunk 5'),
        '6.12.117': ('trixie: 6.12.117-1', 'f' * 64, '6.12',
                     'verified: suite 36/36'),
        '6.12.116': ('trixie-security: 6.12.116-1', '?', '6.12',
                     'listed, but its file is gone from the archive (404)'),
        '5.10.223': ('bullseye: 5.10.223-1', '2' * 64, '5.10',
                     'no series yet (patches/5.10 does not exist)'),
    }
    for r, fields in rows.items():
        (broot / 'releases' / r).mkdir(parents=True)
        (broot / 'releases' / r / 'result').write_text(
            '\t'.join((r,) + fields) + '\n')
    doc = p / 'docs' / 'bases.md'
    script = str(p / 'scripts' / 'check-releases')
    env = dict(os.environ, BUILD_ROOT=str(broot))
    text = doc.read_text()
    assert text.count('<!-- check-releases: begin -->\n') == 1
    r = run(script, '--table', '--docs', env=env)
    assert r.returncode == 0, r.stderr
    new = doc.read_text()
    before, rest = new.split('<!-- check-releases: begin -->\n')
    block, after = rest.split('<!-- check-releases: end -->\n')
    assert before == text.split('<!-- check-releases: begin -->\n')[0]
    assert after == text.split('<!-- check-releases: end -->\n')[1]
    assert re.match(r'Measured on \d{4}-\d\d-\d\d with `make check-releases`',
                    block)
    table = [line for line in block.splitlines() if line.startswith('| ')]
    assert table[1:] == [
        '| 5.10.223 | bullseye: 5.10.223-1 | 5.10 (22222222) | 5.10 | no '
        'series yet (patches/5.10 does not exist) |',
        '| 6.12.115 | trixie-security: 6.12.115-2 | 6.12 a (cccccccc) | 6.12 '
        '| rejected at fuzz 0: 6.12/back/0003, hunk 5 |',
        '| 6.12.116 | trixie-security: 6.12.116-1 | ? | 6.12 | listed, but '
        'its file is gone from the archive (404) |',
        '| 6.12.117 | trixie: 6.12.117-1 | 6.12 b (ffffffff) | 6.12 | '
        'verified: suite 36/36 |',
        '| 6.12.118 | trixie-security: 6.12.118-1 | 6.12 b (ffffffff) | 6.12 '
        '| verified: suite 36/36 |']
    assert r.stdout.endswith(block)
    # without the markers: one line saying so, the file untouched
    doc.write_text('# no table here\n')
    r = run(script, '--table', '--docs', env=env)
    assert r.returncode == 1 and r.stderr.count('\n') == 1
    assert "docs/bases.md has no '<!-- check-releases: begin -->'" in r.stderr
    assert doc.read_text() == '# no table here\n'
