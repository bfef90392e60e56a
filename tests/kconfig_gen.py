# SPDX-License-Identifier: GPL-2.0
"""Random Kconfig trees with old .configs, and the two campaigns that run
stock and patched conf on them (tests/test_random_trees.py).

A tree is a pure function of an integer seed and of the features of the
base's parser (probed once from its stock conf: see probe()).  It has
menus (with 'depends on' and 'visible if'), menuconfig with if/endif,
choices (members with dependencies, choices in menus, choices whose members
can all become invisible), 'depends on', 'depends on X if Y', select (of
symbols whose dependencies may be off), imply, 'default ... if ...',
bool/tristate/int/hex/string with ranges, transitional symbols, symbols
with a second prompt right after the first, comments and sourced files;
its old .config sets, unsets and leaves out symbols, and has bad values
and unknown symbols, so that oldconfig asks some new questions.

Command line (see --help): write a tree, print a base's features, print
what trees ask, and replay one session of a campaign that failed.
"""

import argparse
import difflib
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), 'verify'))
import conflib  # noqa: E402

# ---------------------------------------------------------------------------
# What the base's parser has, and which stock bugs it still has

# Each probe: (Kconfig text, .config or None, mode[, input[, clean]]).  A
# feature is there when the stock conf runs the probe within PROBE_TIMEOUT
# seconds with exit status 0 and, if clean (the default), nothing on
# stderr.
PROBE_TIMEOUT = 2
MODULES_SNIPPET = 'config MODULES\n\tbool "Modules"\n\t%s\n\tdefault y\n'
AB = 'config A\n\tbool "A"\nconfig B\n\tbool "B"\n'
PROBES = {
    # 5.10 has only the old spelling (the other probes take the one there)
    'modules': (MODULES_SNIPPET % 'modules', None, '--olddefconfig'),
    'option_modules': (MODULES_SNIPPET % 'option modules', None,
                       '--olddefconfig'),
    # 6.18 and later
    'transitional': ('config OLD\n\tbool\n\ttransitional\n'
                     'config NEW\n\tbool "New"\n\tdefault OLD\n',
                     b'CONFIG_OLD=y\n', '--olddefconfig'),
    # 7.3 and later
    'conditional_dep': (AB + 'config C\n\tbool "C"\n\tdepends on A if B\n',
                        None, '--olddefconfig'),
    # up to 6.10: tristate and optional choices
    'tristate_choice': ((MODULES_SNIPPET % 'modules') +
                        'choice\n\tprompt "C"\n\ttristate\n'
                        'config C1\n\ttristate "C1"\nendchoice\n',
                        None, '--olddefconfig'),
    'optional_choice': ('choice\n\tprompt "C"\n\toptional\n'
                        'config C1\n\tbool "C1"\nendchoice\n',
                        None, '--olddefconfig'),
    # stock bug (a): oldconfig loops for ever printing 'choice[1-0?]: '
    # when a visible choice has no visible member (7.3, 6.12)
    'empty_choice': (AB + 'choice\n\tprompt "C"\n'
                     'config C1\n\tbool "C1"\n\tdepends on A\nendchoice\n',
                     b'# CONFIG_A is not set\n', '--oldconfig', b'n\n'),
    # stock bug (b): '!= y' prints "Oops! How to check" (7.3, 6.12) ...
    'ne_y': (AB + 'config C\n\tbool "C"\n\tdepends on B != y\n'
             'config D\n\tbool "D"\n\tdefault y if A && B != y\n',
             None, '--olddefconfig'),
    # stock bug (c): oldconfig asks for ever (even at the end of the input)
    # a tristate whose prompt is visible as m and whose default is y: Enter
    # takes the default, which is out of range (7.3, 6.12)
    'prompt_m': ((MODULES_SNIPPET % 'modules') + 'config T1\n\ttristate "T1"\n'
                 'config T2\n\ttristate "T2" if T1\n\tdefault y\n',
                 b'CONFIG_MODULES=y\nCONFIG_T1=m\n', '--oldconfig', b'\n'),
    # stock bug (d): at the end of the input, oldconfig asks for ever an int
    # or hex without a default or a range (6.1: no "kconfig: abort rather
    # than loop for ever on EOF")
    'int_eof': ('config N\n\tint "N"\nconfig H\n\thex "H"\n', None,
                '--oldconfig', b'', False),
    # up to 4.20 (U-Boot's kconfig): a menu's 'visible if' comes before
    # its 'depends on' (else "invalid option")
    'depends_then_visible': (AB + 'menu "M"\n\tdepends on A\n'
                             '\tvisible if !B\nconfig C\n\tbool "C"\n'
                             'endmenu\n', None, '--olddefconfig'),
    # 4.17 (Buildroot's kconfig): an 'imply X if Y' makes the symbol depend
    # on Y, so that a condition on itself (or on what depends on it) is a
    # recursive dependency: its implies have no condition there
    'imply_if': ('config A\n\tbool "A"\n\timply B if A\n'
                 'config B\n\tbool "B"\n', None, '--olddefconfig'),
    # ... and 'depends on A if B != y' crashes the parser (7.3)
    'conditional_ne_y': (AB + 'config C\n\tbool "C"\n'
                         '\tdepends on A if B != y\n',
                         None, '--olddefconfig'),
}

_features = {}


def run_probe(conf, kconfig, dot_config, mode, data=b'', clean=True):
    """Whether conf runs the Kconfig text cleanly (see PROBES)."""
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, 'Kconfig'), 'w') as f:
            f.write(kconfig)
        if dot_config is not None:
            with open(os.path.join(d, '.config'), 'wb') as f:
                f.write(dot_config)
        env = clean_env()
        env.update(srctree=d, KCONFIG_DEFCONFIG_LIST='')
        try:
            p = subprocess.run([conf, mode, 'Kconfig'], cwd=d, env=env,
                               input=data,
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE,
                               timeout=PROBE_TIMEOUT)
        except subprocess.TimeoutExpired:
            return False
        return p.returncode == 0 and not (clean and p.stderr)


def probe(conf):
    """The features of the parser of a stock conf, and whether it has the
    stock bugs, as a sorted tuple of names.  Cached in memory and in a file
    beside the conf, by the checksums of the conf and of the probes."""
    with open(conf, 'rb') as f:
        key = '%s %s' % (hashlib.sha256(f.read()).hexdigest(),
                         hashlib.sha256(repr(sorted(PROBES.items()))
                                        .encode()).hexdigest())
    if key in _features:
        return _features[key]
    cache = os.path.join(os.path.dirname(conf), '.kconfig-gen-features')
    try:
        with open(cache) as f:
            k, _, v = f.read().strip().partition('\n')
        if k == key:
            _features[key] = tuple(v.split(',')) if v else ()
            return _features[key]
    except OSError:
        pass
    # the other probes in the spelling of 'modules' the parser takes
    kw = 'option modules' if run_probe(conf, *PROBES['option_modules']) \
        else 'modules'
    have = {name for name, (text, *rest) in PROBES.items()
            if run_probe(conf, text if name.endswith('modules') else
                         text.replace('\tmodules\n', '\t%s\n' % kw), *rest)}
    if 'conditional_dep' not in have:
        have.discard('conditional_ne_y')
    _features[key] = tuple(sorted(have))
    try:
        with open(cache, 'w') as f:
            f.write('%s\n%s\n' % (key, ','.join(_features[key])))
    except OSError:
        pass
    return _features[key]


def clean_env():
    """The environment without KCONFIG_* variables (a campaign sets its
    own), and with the prefix of the symbols in a .config that the trees
    here have: CONFIG_ (Buildroot's conf is built with none, crosstool-ng's
    with CT_; both take the one the variable CONFIG_ names, as Linux's).
    KCONFIG_AUTOCONFIG names Linux's default: Buildroot's conf has none
    (its make always names one) and crashes in syncconfig without it."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith('KCONFIG_')}
    env['CONFIG_'] = 'CONFIG_'
    env['KCONFIG_AUTOCONFIG'] = 'include/config/auto.conf'
    return env


# ---------------------------------------------------------------------------
# The tree

@dataclass
class Sym:
    name: str
    type: str
    prompt: str = None
    prompt_if: str = None
    deps: list = field(default_factory=list)        # (expr, condition)
    defaults: list = field(default_factory=list)    # (value, condition)
    selects: list = field(default_factory=list)     # (name, condition)
    implies: list = field(default_factory=list)
    ranges: list = field(default_factory=list)      # (low, high, condition)
    transitional: bool = False
    renamed: bool = False       # its default is a transitional symbol
    trigger: bool = False       # ... if this one is set
    menuconfig: bool = False
    modules: str = None
    help: bool = False
    choice: object = None
    rank: int = 0               # what its expressions name is lower
    lo: int = None              # the widest range of an int or hex
    hi: int = None


@dataclass
class Choice:
    prompt: str
    type: str = None
    deps: list = field(default_factory=list)
    default: tuple = None       # (member name, condition)
    optional: bool = False
    members: list = field(default_factory=list)


@dataclass
class Node:
    kind: str           # sym, choice, menu, if, comment, source
    obj: object = None
    text: str = None    # menu title, comment text, if condition, file name
    deps: list = field(default_factory=list)
    visible: str = None
    children: list = field(default_factory=list)


@dataclass
class Tree:
    seed: int
    features: tuple
    files: dict             # file name -> text; 'Kconfig' is the top one
    config: bytes           # the old .config, or None for none
    symbols: list           # every Sym, in the order of the files
    pool: list              # answers that make sense for this tree

    @property
    def selectors(self):
        """A regular expression matching the question of a symbol whose
        answer is worth undoing at once, or None: it selects or implies
        another, or makes a transitional symbol the default of another."""
        names = {s.name for s in self.symbols if s.selects or s.implies}
        for s in self.symbols:
            if s.renamed:
                names.update(c for _, c in s.defaults
                             if c and re.fullmatch(r'\w+', c))
        return r"'(%s)'" % '|'.join(sorted(names)) if names else None

    def write(self, directory):
        for name, text in self.files.items():
            with open(os.path.join(directory, name), 'w') as f:
                f.write(text)


class Generator:
    def __init__(self, seed, features):
        self.rng = random.Random('kconfig-gen:%d' % seed)
        # its own stream, so that the rest of a seed's tree stays the same
        self.again = random.Random('kconfig-gen-again:%d' % seed)
        self.seed = seed
        self.f = set(features)
        self.n = 0
        self.symbols = []
        self.boolish = []       # bool/tristate symbols expressions may use
        self.numbers = []       # int symbols
        self.strings = []
        self.selectors = []     # symbols that may select later ones
        self.choices = []
        self.files = 0
        self.modules = None
        self.cap = None         # expressions name symbols of a lower rank

    # -- names and expressions

    def name(self, prefix):
        self.n += 1
        return '%s%d' % (prefix, self.n)

    def usable(self, symbols):
        """The symbols an expression may name: all earlier ones, or those
        before self.cap."""
        if self.cap is None:
            return symbols
        return [s for s in symbols if s.rank < self.cap]

    def atom(self, boolean=False):
        """A symbol, its negation or a comparison; boolean: never m."""
        r = self.rng
        numbers = self.usable(self.numbers)
        strings = self.usable(self.strings)
        if numbers and r.random() < 0.08:
            s = r.choice(numbers)
            return '%s %s %d' % (s.name, r.choice(['>', '<', '>=', '<=', '=']),
                                 r.randint(s.lo, s.hi))
        if strings and r.random() < 0.05:
            s = r.choice(strings)
            return '%s %s "%s"' % (s.name, r.choice(['=', '!=']),
                                   r.choice(['foo', 'x', '']))
        s = r.choice(self.usable(self.boolish))
        x = r.random()
        if x < 0.75 and not (boolean and s.type == 'tristate'):
            return s.name if x < 0.55 else '!' + s.name
        ops = ['= y', '= m', '= n', '!= n', '!= m']
        if 'ne_y' in self.f:
            ops.append('!= y')
        return '%s %s' % (s.name, r.choice(ops))

    def expr(self, depth=0, boolean=False):
        """A random expression over earlier symbols, or None if there are
        none yet; boolean: its value is never m."""
        if not self.usable(self.boolish):
            return None
        r = self.rng.random()
        if depth < 2 and r < 0.25:
            return '%s %s %s' % (self.expr(depth + 1, boolean),
                                 self.rng.choice(['&&', '||']),
                                 self.expr(depth + 1, boolean))
        if depth < 2 and r < 0.3:
            return '(%s)' % self.expr(depth + 1, boolean)
        if r < 0.33:
            return self.rng.choice(['y', 'n'] if boolean else ['y', 'm', 'n'])
        return self.atom(boolean)

    def visibility(self):
        """A condition of a prompt (prompt if, visible if): without the fix
        of stock bug (c), never m."""
        return self.expr(boolean='prompt_m' not in self.f)

    def maybe(self, p):
        return self.expr() if self.rng.random() < p else None

    def dep_list(self, p_one, p_two):
        """'depends on' lines: (expression, condition) pairs."""
        deps = []
        r = self.rng.random()
        for _ in range(2 if r < p_two else 1 if r < p_one else 0):
            e = self.expr()
            if e is None:
                break
            cond = None
            if 'conditional_dep' in self.f and self.rng.random() < 0.25:
                cond = self.expr()
                if (cond and '!= y' in cond
                        and 'conditional_ne_y' not in self.f):
                    cond = cond.replace('!= y', '= n')
            deps.append((e, cond))
        return deps

    # -- symbols

    def number_values(self, s):
        r = self.rng
        hexa = s.type == 'hex'
        lo = r.choice([0, 0, 1, 10, -5 if not hexa else 16])
        hi = lo + r.choice([1, 5, 10, 100, 4096])
        s.lo, s.hi = lo, hi
        fmt = (lambda v: '0x%x' % v) if hexa else str
        if r.random() < 0.6:
            s.ranges.append((fmt(lo), fmt(hi), None))
            if r.random() < 0.2:
                a = r.randint(lo, hi)
                s.ranges.insert(0, (fmt(a), fmt(r.randint(a, hi)),
                                    self.expr() or 'y'))
        else:
            s.lo, s.hi = lo, lo + 1000
        for _ in range(r.choice([0, 1, 1, 1, 2])):
            v = r.randint(s.lo - 3, s.hi + 3) if r.random() < 0.15 \
                else r.randint(s.lo, s.hi)
            if hexa and v < 0:
                v = 0
            s.defaults.append((fmt(v), self.maybe(0.3)))
        if 'int_eof' not in self.f and (not s.defaults or
                                         s.defaults[-1][1]):
            # without the fix of stock bug (d), a value at the end of input
            s.defaults.append((fmt(r.randint(s.lo, s.hi)), None))

    def sym(self, typ=None, in_choice=None, prompt=True):
        r = self.rng
        if typ is None:
            typ = r.choices(['bool', 'tristate', 'int', 'hex', 'string'],
                            [45, 25, 12, 8, 10])[0]
        prefix = {'bool': 'B', 'tristate': 'T', 'int': 'I', 'hex': 'H',
                  'string': 'S'}[typ]
        s = Sym(self.name('C' if in_choice else prefix), typ)
        s.choice = in_choice
        if in_choice or prompt and r.random() < 0.88:
            s.prompt = 'Prompt of %s' % s.name
            if r.random() < 0.08:
                s.prompt_if = self.visibility()
        s.deps = self.dep_list(0.3, 0.08)
        if in_choice is None:
            if typ in ('bool', 'tristate'):
                for _ in range(r.choice([0, 0, 1, 1, 2])):
                    v = r.choice(['y', 'n', 'm', 'y']) if r.random() < 0.7 \
                        else (self.expr() or 'y')
                    s.defaults.append((v, self.maybe(0.35)))
            elif typ == 'string':
                for _ in range(r.choice([0, 1, 1, 2])):
                    v = r.choice(['foo', 'bar baz', '', 'q\\"uote'])
                    s.defaults.append(('"%s"' % v, self.maybe(0.3)))
            else:
                self.number_values(s)
        s.help = r.random() < 0.25
        self.add_reverse(s)
        s.rank = len(self.symbols)
        self.symbols.append(s)
        if not in_choice:
            self.publish(s)
        return s

    def publish(self, s):
        if s.type in ('bool', 'tristate'):
            self.boolish.append(s)
            self.selectors.append(s)
        elif s.type == 'int':
            self.numbers.append(s)
        elif s.type == 'string':
            self.strings.append(s)

    def add_reverse(self, t):
        """Let earlier symbols select or imply t (a bool or tristate not in
        a choice): its dependencies may be off, which is an unmet
        dependency when the selector is set."""
        if t.choice or t.type not in ('bool', 'tristate') or \
                not self.selectors:
            return
        r = self.rng
        if r.random() < 0.25:
            # mostly a question that is off until answered
            asked = [s for s in self.selectors if s.prompt and not s.defaults]
            s = r.choice(asked if asked and r.random() < 0.8
                         else self.selectors)
            s.selects.append((t.name, self.maybe(0.3)))
            if not t.deps and r.random() < 0.35:
                t.deps = [(self.atom(), None)]
        if r.random() < 0.12:
            s = r.choice(self.selectors)
            cond = self.maybe(0.3)
            s.implies.append((t.name, cond if 'imply_if' in self.f
                              else None))

    def transitional(self):
        r = self.rng
        typ = r.choice(['bool', 'tristate', 'int', 'hex', 'string'])
        old = Sym(self.name('OLD'), typ, transitional=True)
        old.help = r.random() < 0.2
        old.rank = len(self.symbols)
        self.symbols.append(old)
        nodes = [Node('sym', old)]
        for _ in range(r.choice([1, 1, 1, 2])):
            new = self.sym(typ)
            new.renamed = True
            # mostly on an earlier question: its answer gives new the
            # value of old, as a side effect of calculating new
            self.cap = new.rank
            recent = [s for s in self.usable(self.boolish)[-6:] if s.prompt]
            cond = None
            if r.random() < 0.6:
                if recent and r.random() < 0.7:
                    trigger = r.choice(recent)
                    trigger.trigger = True
                    cond = trigger.name
                else:
                    cond = self.expr()
            self.cap = None
            new.defaults.insert(0 if r.random() < 0.8 else
                                r.randint(0, len(new.defaults)),
                                (old.name, cond))
            nodes.append(Node('sym', new))
        r.shuffle(nodes)
        return nodes

    def choice(self):
        r = self.rng
        c = Choice('Choice %d' % len(self.choices))
        self.choices.append(c)
        if 'tristate_choice' in self.f and self.modules and r.random() < 0.3:
            c.type = 'tristate'
        elif 'tristate_choice' in self.f:
            # with its members in an if, the type is not taken from them
            c.type = 'bool'
        c.optional = 'optional_choice' in self.f and r.random() < 0.15
        c.deps = self.dep_list(0.3, 0.05)
        node = Node('choice', c)
        # without the fix of stock bug (a), keep one member visible
        # whenever the choice is
        hidable = 'empty_choice' in self.f and r.random() < 0.5
        n = r.choice([1, 2, 2, 3, 3, 4, 5])
        free = r.randrange(n)
        block = None
        for i in range(n):
            m = self.sym(c.type if c.type == 'tristate' else 'bool', c)
            if i == free and not hidable:
                m.deps = []
                m.prompt_if = None
            c.members.append(m)
            if i != free or hidable:
                if block is not None and r.random() < 0.5:
                    block.children.append(Node('sym', m))
                    continue
                if r.random() < 0.12 and self.boolish:
                    block = Node('if', text=self.expr())
                    block.children.append(Node('sym', m))
                    node.children.append(block)
                    continue
            block = None
            node.children.append(Node('sym', m))
        if r.random() < 0.5:
            c.default = (r.choice(c.members).name, self.maybe(0.3))
        for m in c.members:
            self.publish(m)
        return node

    # -- structure

    def block(self, budget, depth):
        r = self.rng
        nodes = []
        while budget > 0:
            x = r.random()
            if x < 0.08 and depth < 3:
                n = self.choice()
                budget -= len(n.obj.members)
                nodes.append(n)
            elif x < 0.15 and depth < 3:
                n = Node('menu', text='Menu %s' % self.name(''),
                         deps=[d for d, _ in self.dep_list(0.3, 0.05)],
                         visible=self.visibility()
                         if r.random() < 0.25 else None)
                k = r.randint(1, min(budget, 8))
                n.children = self.block(k, depth + 1)
                budget -= k
                nodes.append(n)
            elif x < 0.21 and depth < 3:
                m = self.sym(r.choice(['bool', 'bool', 'tristate']),
                             prompt=True)
                if m.prompt is None:
                    m.prompt = 'Prompt of %s' % m.name
                m.menuconfig = True
                nodes.append(Node('sym', m))
                k = r.randint(1, min(budget, 8))
                n = Node('if', text=m.name)
                n.children = self.block(k, depth + 1)
                budget -= k + 1
                nodes.append(n)
            elif x < 0.26 and depth < 3 and self.boolish:
                n = Node('if', text=self.expr())
                k = r.randint(1, min(budget, 6))
                n.children = self.block(k, depth + 1)
                budget -= k
                nodes.append(n)
            elif x < 0.31:
                nodes.append(Node('comment', text='Comment %s' % self.name(''),
                                  deps=[d for d, _ in self.dep_list(0.3, 0)]))
                budget -= 1
            elif x < 0.34 and self.files < 2 and depth < 2:
                self.files += 1
                name = 'Kconfig.%d' % self.files
                k = r.randint(2, min(max(budget, 2), 12))
                n = Node('source', text=name)
                n.children = self.block(k, depth)
                budget -= k
                nodes.append(n)
            elif x < 0.42 and 'transitional' in self.f and depth == 0:
                # not in a menu or an if: it would get their dependencies
                t = self.transitional()
                nodes += t
                budget -= len(t) - 1
            else:
                nodes.append(Node('sym', self.sym()))
                budget -= 1
            if r.random() < 0.03 and self.symbols and depth == 0:
                # a second definition, without a prompt: more dependencies
                # or defaults of a symbol defined earlier
                s = r.choice(self.symbols)
                if not s.transitional and not s.choice and not s.modules \
                        and s.type in ('bool', 'tristate'):
                    self.cap = s.rank
                    d = Sym(s.name, s.type, deps=self.dep_list(0.7, 0.1),
                            defaults=[('y', self.maybe(0.5))]
                            if r.random() < 0.5 else [])
                    self.cap = None
                    nodes.append(Node('sym', d))
        return nodes

    def generate(self):
        r = self.rng
        top = []
        if r.random() < 0.88:
            kw = 'modules' if 'modules' in self.f else 'option modules'
            m = Sym('MODULES', 'bool', prompt='Enable loadable module support',
                    modules=kw)
            if r.random() < 0.5:
                m.defaults.append(('y', None))
            self.modules = m
            m.rank = len(self.symbols)
            self.symbols.append(m)
            self.boolish.append(m)
            top.append(Node('sym', m))
        top += self.block(r.randint(15, 70), 0)
        files = {'Kconfig': ''}
        text = []
        if r.random() < 0.5:
            text.append('mainmenu "Random tree %d"\n\n' % self.seed)
        self.render(top, text, files)
        files['Kconfig'] = ''.join(text)
        return files

    # -- text

    def render(self, nodes, out, files):
        for n in nodes:
            if n.kind == 'sym':
                out.append(render_sym(n.obj))
                s = n.obj
                # a second prompt right after the first, visible when it
                # is: two questions of one symbol in a row in oldaskconfig
                if (s.prompt and not (s.choice or s.menuconfig or
                                      s.transitional)
                        and self.again.random() < 0.08):
                    out.append(render_sym(Sym(s.name, s.type,
                                              s.prompt + ' again',
                                              s.prompt_if, s.deps)))
            elif n.kind == 'choice':
                c = n.obj
                out.append('choice\n\tprompt "%s"\n' % c.prompt)
                if c.type:
                    out.append('\t%s\n' % c.type)
                if c.optional:
                    out.append('\toptional\n')
                out += ['\tdepends on %s%s\n' % (d, ' if ' + k if k else '')
                        for d, k in c.deps]
                if c.default:
                    out.append('\tdefault %s%s\n' % (
                        c.default[0], ' if ' + c.default[1]
                        if c.default[1] else ''))
                out.append('\n')
                self.render(n.children, out, files)
                out.append('endchoice\n\n')
            elif n.kind == 'menu':
                out.append('menu "%s"\n' % n.text)
                visible = ['\tvisible if %s\n' % n.visible] if n.visible \
                    else []
                deps = ['\tdepends on %s\n' % d for d in n.deps]
                out += deps + visible if 'depends_then_visible' in self.f \
                    else visible + deps
                out.append('\n')
                self.render(n.children, out, files)
                out.append('endmenu\n\n')
            elif n.kind == 'if':
                out.append('if %s\n\n' % n.text)
                self.render(n.children, out, files)
                out.append('endif\n\n')
            elif n.kind == 'comment':
                out.append('comment "%s"\n' % n.text)
                out += ['\tdepends on %s\n' % d for d in n.deps]
                out.append('\n')
            elif n.kind == 'source':
                sub = []
                self.render(n.children, sub, files)
                files[n.text] = ''.join(sub)
                out.append('source "%s"\n\n' % n.text)

    # -- the old .config

    def old_config(self):
        r = self.rng
        x = r.random()
        if x < 0.03:
            return None
        if x < 0.05:
            return b''
        p_new = r.uniform(0.15, 0.6)
        # a quiet .config leaves no warning to conf_read(), and its
        # selectors new or off: under KCONFIG_WERROR, a session has a
        # chance to end well
        quiet = r.random() < 0.4
        dirty = not quiet and r.random() < 0.4
        p_bad = r.uniform(0.03, 0.15) if dirty else 0
        lines = []
        done = set()
        for s in self.symbols:
            if s.name in done or s.choice:
                continue
            done.add(s.name)
            if s.name == 'MODULES':
                v = r.choices(['y', 'n', None], [75, 15, 10])[0]
                if v:
                    lines.append(set_line(r, s.name, v))
                continue
            if s.transitional:
                if r.random() < 0.8:
                    lines.append(set_line(r, s.name, value(r, s)))
                continue
            if (s.prompt or r.random() < 0.3) and r.random() < (
                    max(p_new, 0.7) if s.renamed or s.trigger else p_new):
                continue
            if quiet and (s.selects or s.implies):
                if r.random() < 0.6:
                    lines.append(set_line(r, s.name, 'n'))
                continue
            if r.random() < p_bad:
                lines.append(bad_line(r, s))
            else:
                lines.append(set_line(r, s.name, value(r, s)))
        for c in self.choices:
            if r.random() < p_new:
                continue
            ys = [m for m in c.members if r.random() < 0.4]
            if len(ys) > 1 and r.random() < 0.8:
                ys = ys[:1]
            for m in c.members:
                if m in ys:
                    v = 'm' if c.type == 'tristate' and r.random() < 0.3 \
                        else 'y'
                elif r.random() < 0.8:
                    v = 'n'
                else:
                    continue
                lines.append(set_line(r, m.name, v))
        for i in range(0 if quiet else r.choice([0, 0, 1, 2, 3])):
            lines.append(set_line(r, 'GONE_%d' % i,
                                  r.choice(['y', 'n', '"s"'])))
        if dirty and r.random() < 0.3 and self.symbols:
            s = r.choice(self.symbols)
            lines.append(set_line(r, s.name, value(r, s)))
        if dirty and r.random() < 0.2:
            lines.append(r.choice(['garbage line', 'CONFIG_', '# comment',
                                   '', 'CONFIG_B1']) + '\n')
        if r.random() < 0.7:
            r.shuffle(lines)
        return ''.join(lines).encode()


def render_sym(s):
    out = ['%s %s\n' % ('menuconfig' if s.menuconfig else 'config', s.name)]
    if s.prompt:
        out.append('\t%s "%s"%s\n' % (s.type, s.prompt,
                                      ' if ' + s.prompt_if if s.prompt_if
                                      else ''))
    else:
        out.append('\t%s\n' % s.type)
    if s.transitional:
        out.append('\ttransitional\n')
    if s.modules:
        out.append('\t%s\n' % s.modules)
    for d, c in s.deps:
        out.append('\tdepends on %s%s\n' % (d, ' if ' + c if c else ''))
    for v, c in s.defaults:
        out.append('\tdefault %s%s\n' % (v, ' if ' + c if c else ''))
    for lo, hi, c in s.ranges:
        out.append('\trange %s %s%s\n' % (lo, hi, ' if ' + c if c else ''))
    for kw, lst in (('select', s.selects), ('imply', s.implies)):
        for t, c in lst:
            out.append('\t%s %s%s\n' % (kw, t, ' if ' + c if c else ''))
    if s.help:
        out.append('\thelp\n\t  Help text of %s.\n\n\t  Second paragraph.\n'
                   % s.name)
    out.append('\n')
    return ''.join(out)


def set_line(r, name, v):
    if v == 'n' and r.random() < 0.7:
        return '# CONFIG_%s is not set\n' % name
    return 'CONFIG_%s=%s\n' % (name, v)


def value(r, s):
    if s.type == 'bool':
        return r.choice(['y', 'n'])
    if s.type == 'tristate':
        return r.choice(['y', 'm', 'n'])
    if s.type == 'string':
        return '"%s"' % r.choice(['foo', 'old value', '', 'a \\"q\\"',
                                  'back\\\\slash'])
    lo = s.lo if s.lo is not None else 0
    hi = s.hi if s.hi is not None else 100
    v = r.randint(lo, hi)
    return '0x%x' % v if s.type == 'hex' else str(v)


def bad_line(r, s):
    bad = {'bool': ['m', 'x', '2', ''], 'tristate': ['x', 'Y', ''],
           'int': ['abc', '0x10', '99999999', '-', ''],
           'hex': ['zz', '10', '-0x1', ''],
           'string': ['unquoted', '"unterminated', '']}[s.type]
    if s.type in ('int', 'hex') and s.lo is not None:
        bad.append(str(s.hi + 7) if s.type == 'int' else '0x%x' % (s.hi + 7))
    return 'CONFIG_%s=%s\n' % (s.name, r.choice(bad))


def answer_pool(symbols):
    """Answer lines for piped runs: valid and invalid for this tree."""
    pool = ['', '', '', '', 'y', 'n', 'm', 'Y', '?', 'x', '1', '2', '3', '4',
            '0', '9', '-3', '0x10', 'foo', 'bar baz', ' y ', '1?', 'abc']
    for s in symbols:
        if s.lo is not None:
            pool.append(str(s.lo) if s.type == 'int' else '0x%x' % s.hi)
            pool.append(str(s.hi + 1) if s.type == 'int' else hex(s.lo))
    return pool


def generate(seed, features):
    """The tree of a seed for a base with these features."""
    g = Generator(seed, features)
    files = g.generate()
    config = g.old_config()
    return Tree(seed, tuple(sorted(features)), files, config, g.symbols,
                answer_pool(g.symbols))


# ---------------------------------------------------------------------------
# The campaigns

VARIABLES = ['KCONFIG_WERROR', 'KCONFIG_WARN_UNKNOWN_SYMBOLS',
             'KCONFIG_WARN_CHANGED_INPUT']
MARKERS = [b'* Back to the previous question\n',
           b'* No earlier answer to go back to\n']
SANITIZER = re.compile(rb'Sanitizer|runtime error')
# leaks of stock code that later kernels fixed
LSAN_SUPPRESSIONS = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                 'lsan.supp')
# what conf prints on stderr about a tree it does not parse cleanly
PARSE_PROBLEM = re.compile(rb'Kconfig[.\d]*:\d+:|Oops|recursive dependency')


@dataclass
class Spec:
    """One session on a tree: what conf runs it, in which mode, with which
    variables; back: with '<' (compared with stock fed the surviving
    answers) or not (compared byte for byte)."""
    tree: int
    session: int
    mode: str
    env: dict
    conf: str           # the variant of the patched conf
    back: bool
    p_back: float = 0.2
    script: list = None     # lines to send first (see back_session())

    def replay(self, base, features=None):
        """The command that replays the session (on a tree of these
        features, if they are given: the stock conf may have changed)."""
        rel = os.path.relpath(base.path, conflib.TOP)
        cmd = ['/usr/bin/python3', 'tests/kconfig_gen.py', '--replay',
               '--base', rel, '--tree', str(self.tree),
               '--session', str(self.session), '--mode', self.mode.lstrip('-'),
               '--conf', self.conf, '--back' if self.back else '--no-back']
        if self.back:
            cmd += ['--p-back', '%g' % self.p_back]
        for k, v in sorted(self.env.items()):
            cmd += ['--env', '%s=%s' % (k, v)]
        if features is not None:
            cmd += ['--features', ','.join(features) or "''"]
        return ' '.join(cmd)

    def __str__(self):
        return 'tree %d session %d %s %s conf=%s %s' % (
            self.tree, self.session, self.mode,
            ' '.join('%s=%s' % kv for kv in sorted(self.env.items()))
            or '(no KCONFIG_ variable)', self.conf,
            "with '<' (p_back %g)" % self.p_back if self.back
            else "without '<'")


def session_spec(tree, session, back, p_asan=0.1):
    """The mode, variables and conf of a session, from its seed: the
    patched conf ('patched'), or for part of the sessions the patched conf
    built with ASan and UBSan ('asan')."""
    r = random.Random('kconfig-gen-session:%d:%d:%d' % (tree, session, back))
    mode = r.choice(conflib.INTERACTIVE_MODES)
    env = {k: r.choice(['1', '1', 'y']) for k in VARIABLES
           if r.random() < (0.5 if k == 'KCONFIG_WERROR' else 0.3)}
    conf = 'asan' if r.random() < p_asan else 'patched'
    return Spec(tree, session, mode, env, conf, back,
                r.choice([0.1, 0.2, 0.3, 0.5]))


def session_seeds(tree, sessions):
    """The seeds of a tree's sessions (distinct across trees)."""
    return [tree * 1000 + k for k in range(sessions)]


@dataclass
class Campaign:
    """What a campaign ran, and what failed."""
    base: object
    back: bool
    features: tuple = ()
    runs: int = 0
    backs: int = 0              # '<' sent, over all sessions
    failures: list = field(default_factory=list)    # (Spec, problems)
    by_conf: dict = field(default_factory=dict)
    by_problem: dict = field(default_factory=dict)

    def report(self, full=5, lines=60):
        """One message for all failures: the first few in full, with
        the command that replays each."""
        what = "with '<'" if self.back else "without '<'"
        out = ['%d of %d sessions %s failed on %s (by problem: %s)' % (
            len(self.failures), self.runs, what, self.base.version,
            ', '.join('%s: %d' % kv
                      for kv in sorted(self.by_problem.items())))]
        for i, (spec, problems) in enumerate(self.failures):
            if i < full:
                out += ['', '%s: %s' % (spec, '; '.join(problems)),
                        '  replay: ' + spec.replay(self.base, self.features)]
            elif i - full < lines:
                out.append('%s: %s' % (spec, '; '.join(problems)))
            else:
                out.append('... and %d more' % (len(self.failures) - i))
                break
        return '\n'.join(out)


def problem_kind(p):
    return re.sub(r'\d+', 'N', p.split(':')[0])


def run_campaign(base, trees, sessions, back, workdir, features=None,
                 confs=None):
    """Run sessions on every tree of the seeds in trees: with '<' or
    without.  confs: the conf of a variant name, if not the base's.
    Returns a Campaign."""
    features = features if features is not None else probe(base.stock)
    c = Campaign(base, back, features)
    for seed in trees:
        tree = generate(seed, features)
        src = os.path.join(workdir, 'tree-%d' % seed)
        os.makedirs(src)
        tree.write(src)
        work = os.path.join(workdir, 'work')
        os.makedirs(work, exist_ok=True)
        for session in session_seeds(seed, sessions):
            spec = session_spec(seed, session, back)
            conf = (confs or {}).get(spec.conf) or base.conf(spec.conf)
            problems, mine, _ = run_session(base, tree, spec, work, src,
                                            {spec.conf: conf})
            c.runs += 1
            c.by_conf[spec.conf] = c.by_conf.get(spec.conf, 0) + 1
            if mine is not None and back:
                c.backs += sum(line.strip() == '<' for line in mine.sent)
            if problems:
                c.failures.append((spec, problems))
                for p in problems:
                    k = problem_kind(p)
                    c.by_problem[k] = c.by_problem.get(k, 0) + 1
        shutil.rmtree(src)
    return c


def tail_after_back(out):
    """What patched conf printed after the last '<': the bytes after the
    last line saying it went back.  None if it never went back."""
    i = max((out.rfind(m) + len(m) for m in MARKERS if m in out),
            default=None)
    return None if i is None else out[i:]


def stdout_tail_matches(mine, stock):
    """Whether stock's stdout ends with what the patched conf printed after
    the last '<' (all of it if it never went back)."""
    tail = tail_after_back(mine)
    return stock == mine if tail is None else stock.endswith(tail)


def run_session(base, tree, spec, workdir, srctree, confs):
    """Run one session; returns a list of problems (empty: it passed).
    confs: variant name -> path of conf."""
    env = clean_env()
    env.update(spec.env)
    if spec.conf == 'asan':
        env['LSAN_OPTIONS'] = 'suppressions=%s:print_suppressions=0' % \
            LSAN_SUPPRESSIONS
    conf = confs[spec.conf]
    problems = []
    try:
        if spec.back:
            t, problems = conflib.check_equivalence(
                conf, base.stock, spec.mode, 'Kconfig', srctree, workdir,
                tree.config, env, spec.session, p_back=spec.p_back,
                max_backs=30, timeout=30, focus_after=tree.selectors,
                script=spec.script)
            mine, stock = t.result, t.stock
            mine.sent = t.sent
            # after the last '<', conf prints what stock prints when given
            # the surviving answers and then the same lines
            stock = conflib.run_conf(
                base.stock, spec.mode, 'Kconfig', srctree, workdir,
                tree.config, t.input_after_last_back(), env, timeout=30,
                max_output=1 << 24)
            if not stdout_tail_matches(mine.stdout, stock.stdout):
                problems.append('stdout after the last <')
        else:
            data = conflib.random_stream(random.Random(spec.session), 60,
                                         pool=tree.pool)
            stock = conflib.run_conf(base.stock, spec.mode, 'Kconfig',
                                     srctree, workdir, tree.config, data, env,
                                     timeout=30, max_output=1 << 24)
            mine = conflib.run_conf(conf, spec.mode, 'Kconfig', srctree,
                                    workdir, tree.config, data, env,
                                    timeout=30, max_output=1 << 24)
            problems = ['%s differ' % f for f in stock.differences(mine)]
    except (conflib.Hang, subprocess.TimeoutExpired, ValueError) as e:
        return ['%s: %s' % (type(e).__name__, str(e)[-500:])], None, None
    if SANITIZER.search(mine.stderr):
        problems.append('sanitizer report')
    return problems, mine, stock


# ---------------------------------------------------------------------------
# Shrinking a failing session: fewer lines of Kconfig, .config and input

STANZA = re.compile(r'(config|menuconfig|comment|source|mainmenu) ')
OPENERS = {'if': 'endif', 'menu': 'endmenu', 'choice': 'endchoice'}


def candidates(lines):
    """Smaller versions of a Kconfig file (a list of lines): without a
    stanza, without a block (or only its if/menu/choice lines), without
    one attribute or help text."""
    n = len(lines)

    def extent(i):
        """The end of the entry starting at line i: its indented lines."""
        j = i + 1
        while j < n and (lines[j].startswith((' ', '\t')) or
                         not lines[j].strip()):
            j += 1
        return j

    out = []
    stack = []
    for i, line in enumerate(lines):
        word = line.split(' ')[0].strip()
        if word in OPENERS:
            stack.append((word, i))
        elif word in OPENERS.values() and stack:
            _, start = stack.pop()
            out.append(lines[:start] + lines[i + 1:])
            head = extent(start)
            out.append(lines[:start] + lines[head:i] + lines[i + 1:])
        elif STANZA.match(line):
            out.append(lines[:i] + lines[extent(i):])
    for i, line in enumerate(lines):
        t = line.strip()
        if not line.startswith('\t') or line.startswith('\t  '):
            continue
        if t == 'help':
            j = i + 1
            while j < n and (lines[j].startswith('\t  ') or
                             not lines[j].strip()):
                j += 1
            out.append(lines[:i] + lines[j:])
        elif t.split(' ')[0] in ('depends', 'select', 'imply', 'default',
                                 'range', 'visible', 'optional'):
            out.append(lines[:i] + lines[i + 1:])
        elif ' if ' in t and '"' in t:     # a prompt's condition
            indent = line[:len(line) - len(line.lstrip())]
            out.append(lines[:i] + [indent + t.split(' if ')[0] + '\n'] +
                       lines[i + 1:])
    # the biggest cuts first
    out.sort(key=len)
    return out


def chunks(items):
    """Smaller lists: without a chunk of half, a quarter, ... one item."""
    size = len(items) // 2
    while size >= 1:
        for i in range(0, len(items), size):
            yield items[:i] + items[i + size:]
        size //= 2


def shrink(base, spec, tree, workdir, keep, conf=None, log=print,
           budget=3000):
    """Remove what a failing session can do without while keep(problems)
    holds: lines of Kconfig, of .config and of the input (the session's
    lines sent first, then random ones).  Returns (files, config, script,
    problems)."""
    files = {k: v.splitlines(True) for k, v in tree.files.items()}
    config = tree.config.decode().splitlines(True) if tree.config else None
    runs = 0

    def fails(files, config, script):
        nonlocal runs
        runs += 1
        src = tempfile.mkdtemp(dir=workdir)
        try:
            for name, lines in files.items():
                with open(os.path.join(src, name), 'w') as f:
                    f.write(''.join(lines))
            t = Tree(tree.seed, tree.features,
                     {k: ''.join(v) for k, v in files.items()},
                     ''.join(config).encode() if config is not None else None,
                     tree.symbols, tree.pool)
            s = Spec(spec.tree, spec.session, spec.mode, spec.env, spec.conf,
                     spec.back, spec.p_back, script)
            problems, mine, _ = run_session(base, t, s, workdir, src,
                                            {s.conf: conf})
            if keep(problems):
                return problems, mine
            return None, None
        finally:
            shutil.rmtree(src, ignore_errors=True)

    problems, mine = fails(files, config, spec.script)
    if problems is None:
        raise ValueError('the session does not fail as asked')
    script = list(mine.sent) if spec.back else None
    changed = True
    while changed and runs < budget:
        changed = False
        if script is not None:
            for cand in chunks(script):
                p, m = fails(files, config, cand)
                if p is not None and len(m.sent) < len(script):
                    script, problems, changed = list(m.sent), p, True
                    break
        for name in list(files):
            for cand in candidates(files[name]):
                p, m = fails(dict(files, **{name: cand}), config, script)
                if p is not None:
                    files[name], problems, changed = cand, p, True
                    if script is not None:
                        script = list(m.sent)
                    break
        if config:
            for cand in chunks(config):
                p, m = fails(files, cand, script)
                if p is not None:
                    config, problems, changed = cand, p, True
                    break
        log('%d runs: %d lines of Kconfig, %d of .config, %d of input' % (
            runs, sum(len(v) for v in files.values()), len(config or []),
            len(script or [])))
    return files, config, script, problems


def show_diff(name, a, b, limit=60):
    a = (a or b'').decode(errors='replace').splitlines(True)
    b = (b or b'').decode(errors='replace').splitlines(True)
    d = list(difflib.unified_diff(a, b, 'stock ' + name, 'patched ' + name))
    if len(d) > limit:
        d = d[:limit] + ['... (%d more lines)\n' % (len(d) - limit)]
    return ''.join(d)


def replay(args):
    base = conflib.Base(os.path.join(conflib.TOP, args.base)
                        if not os.path.isabs(args.base) else args.base)
    features = tuple(args.features.split(',')) if args.features is not None \
        else probe(base.stock)
    if args.replay_dir:
        tree, args.script = load(args.replay_dir, args.tree, features)
    else:
        tree = generate(args.tree, features)
    env = dict(kv.split('=', 1) for kv in args.env)
    if args.p_back is None:
        args.p_back = session_spec(args.tree, args.session, True).p_back
    args.conf_path = os.path.abspath(args.conf_path or base.conf(args.conf))
    if args.shrink is not None:
        tree, args.script = shrunk(base, tree, args, env)
    spec = Spec(args.tree, args.session, '--' + args.mode, env, args.conf,
                args.back, args.p_back, getattr(args, 'script', None))
    d = args.dir or tempfile.mkdtemp(prefix='kconfig-gen-')
    os.makedirs(d, exist_ok=True)
    src = os.path.join(d, 'tree')
    work = os.path.join(d, 'work')
    shutil.rmtree(src, ignore_errors=True)
    os.makedirs(src)
    os.makedirs(work, exist_ok=True)
    tree.write(src)
    if tree.config is not None:
        with open(os.path.join(src, 'old.config'), 'wb') as f:
            f.write(tree.config)
    if os.path.exists(os.path.join(d, 'input')):
        os.unlink(os.path.join(d, 'input'))
    print('%s on %s (features: %s)' % (spec, base.version, ','.join(features)))
    print('tree in %s (old .config: %s)' % (
        src, 'old.config' if tree.config is not None else 'none'))
    if spec.script is not None:
        for name, text in tree.files.items():
            print('---- %s\n%s' % (name, text), end='')
        print('---- old.config\n%s' % (tree.config or b'').decode(), end='')
        print('---- input sent first: %r' % spec.script)
    confs = {spec.conf: args.conf_path}
    problems, mine, stock = run_session(base, tree, spec, work, src, confs)
    if mine is not None and spec.back:
        with open(os.path.join(d, 'input'), 'w') as f:
            json.dump(mine.sent, f)
        print('the input sent is in %s/input: --replay-dir %s replays it '
              'on that tree' % (d, d))
    if mine is not None:
        for f in ('returncode', 'config', 'include', 'stderr'):
            a, b = getattr(stock, f), getattr(mine, f)
            if a != b:
                if f == 'returncode':
                    print('exit status: stock %s, patched %s' % (a, b))
                elif f == 'include':
                    for k in sorted(set(a or {}) | set(b or {})):
                        print(show_diff('include/' + k, (a or {}).get(k),
                                        (b or {}).get(k)), end='')
                else:
                    print(show_diff(f, a, b), end='')
        if spec.back:
            tail = tail_after_back(mine.stdout)
            tail = mine.stdout if tail is None else tail
            n = len(tail.splitlines())
            end = b''.join(stock.stdout.splitlines(True)[-n:])
            if not stock.stdout.endswith(tail):
                print(show_diff('stdout (the end)', end, tail), end='')
            print("patched conf's input:")
            print(''.join('  %r\n' % line for line in mine.sent), end='')
        else:
            print(show_diff('stdout', stock.stdout, mine.stdout), end='')
    print('problems: %s' % (problems or 'none'))
    return 1 if problems else 0


def load(d, seed, features):
    """The tree a replay wrote into d (tree/: the Kconfig files and
    old.config), and the input it sent (d/input), if any."""
    src = os.path.join(d, 'tree')
    files = {}
    for name in sorted(os.listdir(src)):
        if name != 'old.config':
            with open(os.path.join(src, name)) as f:
                files[name] = f.read()
    config = conflib.read_file(os.path.join(src, 'old.config'))
    script = None
    if os.path.exists(os.path.join(d, 'input')):
        with open(os.path.join(d, 'input')) as f:
            script = json.load(f)
    return Tree(seed, features, files, config, [], []), script


def shrunk(base, tree, args, env):
    """Shrink the session of args (see shrink()); the smaller tree and
    the input to send first."""
    spec = Spec(args.tree, args.session, '--' + args.mode, env, args.conf,
                args.back, args.p_back, getattr(args, 'script', None))

    def keep(problems):
        return any(re.search(args.shrink, p) for p in problems)

    with tempfile.TemporaryDirectory() as work:
        files, config, script, problems = shrink(
            base, spec, tree, work, keep, args.conf_path,
            log=lambda m: print(m, file=sys.stderr))
    t = Tree(tree.seed, tree.features, {k: ''.join(v) for k, v in
                                         files.items()},
             ''.join(config).encode() if config is not None else None,
             tree.symbols, tree.pool)
    return t, script


def stats(args):
    """How many questions oldconfig asks on trees, taking every default."""
    base = conflib.Base(args.base)
    features = probe(base.stock)
    counts = []
    with tempfile.TemporaryDirectory() as d:
        for seed in range(args.trees):
            tree = generate(seed, features)
            src = os.path.join(d, str(seed))
            os.makedirs(src)
            tree.write(src)
            try:
                r = conflib.run_conf(base.stock, '--oldconfig', 'Kconfig',
                                     src, d, tree.config, b'', clean_env(),
                                     timeout=10, max_output=1 << 20)
            except subprocess.TimeoutExpired:
                print('tree %d: timeout' % seed)
                continue
            counts.append(r.stderr.count(b'Error in reading or end of file'))
            if r.returncode or PARSE_PROBLEM.search(r.stderr) or \
                    not 5 <= counts[-1] <= 40:
                print('tree %d: exit %d, %d questions\n%s' % (
                    seed, r.returncode, counts[-1],
                    r.stderr.decode()[-300:] if r.returncode else ''))
    counts.sort()
    print('features: %s' % ','.join(features))
    print('questions asked by oldconfig: min %d, median %d, max %d; '
          '5..40: %d of %d' % (counts[0], counts[len(counts) // 2],
                               counts[-1],
                               sum(5 <= c <= 40 for c in counts),
                               len(counts)))


def main():
    ap = argparse.ArgumentParser(
        description='Random Kconfig trees with old .configs (see '
        'tests/test_random_trees.py).  --write DIR --seed N writes a tree; '
        '--replay replays one session of a campaign, printing what differs '
        'between the stock conf and the patched one; --probe prints the '
        "features of a base's parser; --stats prints how many questions "
        'oldconfig asks on trees.')
    ap.add_argument('--base', default='build/mainline',
                    help='build directory of a base (build/<version>)')
    ap.add_argument('--seed', '--tree', dest='tree', type=int, default=0,
                    help='the seed of the tree')
    ap.add_argument('--features', help='comma-separated features (default: '
                    "probed from the base's stock conf)")
    ap.add_argument('--write', metavar='DIR',
                    help='write the tree (and old.config) into DIR')
    ap.add_argument('--probe', action='store_true')
    ap.add_argument('--stats', action='store_true')
    ap.add_argument('--trees', type=int, default=200)
    ap.add_argument('--replay', action='store_true')
    ap.add_argument('--session', type=int, default=0,
                    help='the seed of the session')
    ap.add_argument('--mode', default='oldconfig',
                    choices=[m.lstrip('-') for m in conflib.INTERACTIVE_MODES])
    ap.add_argument('--env', action='append', default=[], metavar='VAR=VALUE')
    ap.add_argument('--conf', default='patched',
                    help='the variant of the patched conf (patched, '
                    'asan)')
    ap.add_argument('--conf-path', help='run this conf as the variant '
                    '(default: build/<version>/VARIANT/scripts/kconfig/conf)')
    ap.add_argument('--back', action=argparse.BooleanOptionalAction,
                    default=True, help="with '<' (default) or without")
    ap.add_argument('--p-back', type=float,
                    help="how often a question starts a run of '<' "
                    '(default: as in the campaign)')
    ap.add_argument('--dir', help='where --replay writes the tree and runs '
                    'conf (default: a new temporary directory, kept)')
    ap.add_argument('--replay-dir', metavar='DIR', help='with --replay: '
                    'the tree that an earlier --replay wrote into DIR, and '
                    'its input first (a shrunk session, or one edited by '
                    'hand)')
    ap.add_argument('--shrink', metavar='REGEX', nargs='?', const='',
                    help='with --replay: remove lines of the Kconfig files, '
                    'the .config and the input while a problem matching '
                    'REGEX (default: any) remains, then write what is left '
                    'into --dir and replay that')
    args = ap.parse_args()
    if args.base and not os.path.isabs(args.base):
        args.base = os.path.join(conflib.TOP, args.base)
    if args.probe:
        print(','.join(probe(conflib.Base(args.base).stock)))
        return 0
    if args.stats:
        return stats(args)
    if args.replay:
        return replay(args)
    if args.write:
        features = tuple(args.features.split(',')) \
            if args.features is not None \
            else probe(conflib.Base(args.base).stock)
        tree = generate(args.tree, features)
        os.makedirs(args.write, exist_ok=True)
        tree.write(args.write)
        if tree.config is not None:
            with open(os.path.join(args.write, 'old.config'), 'wb') as f:
                f.write(tree.config)
        print(args.write)
        return 0
    ap.print_help()
    return 2


if __name__ == '__main__':
    raise SystemExit(main())
