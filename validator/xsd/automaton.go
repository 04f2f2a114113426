package xsd

import (
	"fmt"
	"sort"
	"strings"
)

// Content models are compiled to deterministic automata: a Glushkov
// (position) automaton over the particles, with occurrence bounds expanded
// into copies of the particle (at most maxPositions positions), then made
// deterministic by the subset construction. Because schemas must satisfy
// Unique Particle Attribution, the sets are small: in practice each state
// is one position, or a few copies of the same particle.
//
// Like libxml2, a name that both an element particle and a wildcard match
// goes to the element particle (libxml2 accepts such schemas although they
// break UPA; XML Schema 1.1 resolves them the same way), while two element
// particles of the same name, or two overlapping wildcards, that compete
// are refused as libxml2 refuses them ("The content model is not
// determinist").
//
// xs:all groups are not expanded (that would need one state per subset):
// they are checked with a bit set of the elements seen.

const (
	maxPositions = 100000
	maxStates    = 100000
)

// particle is a content model particle after references are resolved.
type particle struct {
	min, max int // max < 0 is unbounded
	kind     particleKind
	elem     *elementDecl
	wild     *wildcard
	children []*particle
	// A group reference, expanded when the content model is compiled.
	group   *groupDef
	refDoc  *schemaDoc
	refNode *xnode
}

type particleKind uint8

const (
	pElement particleKind = iota
	pWildcard
	pSequence
	pChoice
	pAll
	pGroupRef
)

// term is what a content model transition matched: an element declaration
// or a wildcard.
type term struct {
	decl *elementDecl
	wild *wildcard
}

// automaton is a compiled content model.
type automaton struct {
	states []dstate
	all    *allGroup
	// empty is set when the model accepts only the empty sequence.
	empty bool
}

type dstate struct {
	final    bool
	edges    []edge
	byName   map[qname]int32 // index into edges, for states with many edges
	wild     []wedge
	expected []Expected
}

type edge struct {
	name qname
	next int32
	decl *elementDecl
}

type wedge struct {
	w    *wildcard
	next int32
}

// next returns the state after a child element named n, the term it
// matched, and false if the element is not allowed.
func (a *automaton) next(st uint64, n qname) (uint64, term, bool) {
	if a.all != nil {
		return a.all.next(st, n)
	}
	s := &a.states[st]
	if s.byName != nil {
		if i, ok := s.byName[n]; ok {
			e := &s.edges[i]
			return uint64(e.next), term{decl: e.decl}, true
		}
	} else {
		for i := range s.edges {
			e := &s.edges[i]
			if e.name.local == n.local && e.name.ns == n.ns {
				return uint64(e.next), term{decl: e.decl}, true
			}
		}
	}
	for _, w := range s.wild {
		if w.w.allows(n.ns) {
			return uint64(w.next), term{wild: w.w}, true
		}
	}
	return st, term{}, false
}

// final reports whether the content may end in state st.
func (a *automaton) final(st uint64) bool {
	if a.all != nil {
		return a.all.final(st)
	}
	return a.states[st].final
}

// expected lists what may come next in state st.
func (a *automaton) expected(st uint64) []Expected {
	if a.all != nil {
		return a.all.expected(st)
	}
	return a.states[st].expected
}

// allGroup checks an xs:all group.
type allGroup struct {
	elems    []allElem
	byName   map[qname]int
	optional bool // minOccurs="0" on the group: the empty content is fine
}

type allElem struct {
	decl     *elementDecl
	required bool
	bit      uint64
}

func (g *allGroup) next(st uint64, n qname) (uint64, term, bool) {
	i, ok := g.byName[n]
	if !ok {
		return st, term{}, false
	}
	e := &g.elems[i]
	d := e.decl
	if d.name != n {
		for _, s := range d.substs {
			if s.name == n {
				d = s
				break
			}
		}
	}
	if st&e.bit != 0 {
		return st, term{}, false
	}
	return st | e.bit, term{decl: d}, true
}

func (g *allGroup) final(st uint64) bool {
	if st == 0 && g.optional {
		return true
	}
	for _, e := range g.elems {
		if e.required && st&e.bit == 0 {
			return false
		}
	}
	return true
}

func (g *allGroup) expected(st uint64) []Expected {
	var out []Expected
	for _, e := range g.elems {
		if st&e.bit == 0 {
			out = append(out, Expected{Name: e.decl.name.name()})
		}
	}
	return out
}

// compileModel builds the automaton of a content model particle (nil for
// no particle).
func compileModel(p *particle) (*automaton, error) {
	if p != nil && p.kind == pAll {
		return compileAll(p)
	}
	b := &glushkov{}
	var root *rnode
	if p != nil {
		var err error
		root, err = b.expand(p)
		if err != nil {
			return nil, err
		}
	}
	return b.determinize(root)
}

func compileAll(p *particle) (*automaton, error) {
	if p.max == 0 {
		return &automaton{empty: true, states: []dstate{{final: true}}}, nil
	}
	if len(p.children) > 64 {
		return nil, fmt.Errorf("an xs:all group with more than 64 elements is not supported")
	}
	g := &allGroup{byName: map[qname]int{}, optional: p.min == 0}
	for i, c := range p.children {
		if c.kind != pElement {
			return nil, fmt.Errorf("xs:all may contain only element particles")
		}
		if c.max > 1 {
			return nil, fmt.Errorf("an element in xs:all may occur at most once")
		}
		if c.max == 0 {
			continue
		}
		e := allElem{decl: c.elem, required: c.min > 0, bit: 1 << uint(i)}
		for _, d := range append([]*elementDecl{c.elem}, c.elem.substs...) {
			if d.abstract && d == c.elem {
				continue
			}
			if _, dup := g.byName[d.name]; dup {
				return nil, fmt.Errorf("the content model is not deterministic: element %s appears twice in xs:all", d.name)
			}
			g.byName[d.name] = len(g.elems)
		}
		g.elems = append(g.elems, e)
	}
	return &automaton{all: g}, nil
}

// rnode is a node of the expanded regular expression over positions.
type rnode struct {
	op       byte // 's' symbol, '.' sequence, '|' choice, '*' star, '+' plus, '?' optional, 'e' empty
	pos      int  // for 's'
	children []*rnode
	// Glushkov attributes.
	nullable    bool
	first, last []int
}

type position struct {
	t  term
	id int // the particle the position was copied from (UPA)
	n  qname
}

type glushkov struct {
	pos    []position // pos[0] is unused (the initial state)
	follow [][]int
	nextID int
	ids    map[*particle]int
}

func (b *glushkov) particleID(p *particle) int {
	if b.ids == nil {
		b.ids = map[*particle]int{}
	}
	if id, ok := b.ids[p]; ok {
		return id
	}
	b.nextID++
	b.ids[p] = b.nextID
	return b.nextID
}

// expand turns a particle into a regular expression, expanding occurrence
// bounds into copies.
func (b *glushkov) expand(p *particle) (*rnode, error) {
	if p.max == 0 {
		return &rnode{op: 'e'}, nil
	}
	if p.max >= 0 && p.max < p.min {
		return nil, fmt.Errorf("maxOccurs is less than minOccurs")
	}
	one := func() (*rnode, error) { return b.expandOne(p) }
	var parts []*rnode
	for i := 0; i < p.min-1; i++ {
		n, err := one()
		if err != nil {
			return nil, err
		}
		parts = append(parts, n)
	}
	switch {
	case p.max < 0 && p.min == 0:
		n, err := one()
		if err != nil {
			return nil, err
		}
		parts = append(parts, &rnode{op: '*', children: []*rnode{n}})
	case p.max < 0:
		n, err := one()
		if err != nil {
			return nil, err
		}
		parts = append(parts, &rnode{op: '+', children: []*rnode{n}})
	default:
		if p.min > 0 {
			n, err := one()
			if err != nil {
				return nil, err
			}
			parts = append(parts, n)
		}
		// (x (x (x)?)?)? for the optional occurrences: nested, so that the
		// copies do not compete.
		var opt *rnode
		for i := 0; i < p.max-max(p.min, 1)+boolInt(p.min == 0); i++ {
			n, err := one()
			if err != nil {
				return nil, err
			}
			if opt != nil {
				n = &rnode{op: '.', children: []*rnode{n, opt}}
			}
			opt = &rnode{op: '?', children: []*rnode{n}}
		}
		if opt != nil {
			parts = append(parts, opt)
		}
	}
	if len(parts) == 1 {
		return parts[0], nil
	}
	return &rnode{op: '.', children: parts}, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (b *glushkov) expandOne(p *particle) (*rnode, error) {
	if len(b.pos) > maxPositions {
		return nil, fmt.Errorf("the content model is too large once occurrence bounds are expanded (more than %d positions)", maxPositions)
	}
	switch p.kind {
	case pElement:
		id := b.particleID(p)
		var alts []*rnode
		if !p.elem.abstract {
			alts = append(alts, b.symbol(term{decl: p.elem}, id, p.elem.name))
		}
		for _, s := range p.elem.substs {
			if !s.abstract {
				alts = append(alts, b.symbol(term{decl: s}, id, s.name))
			}
		}
		if len(alts) == 1 {
			return alts[0], nil
		}
		return &rnode{op: '|', children: alts}, nil
	case pWildcard:
		return b.symbol(term{wild: p.wild}, b.particleID(p), qname{}), nil
	case pSequence, pChoice:
		op := byte('.')
		if p.kind == pChoice {
			op = '|'
		}
		n := &rnode{op: op}
		for _, c := range p.children {
			cn, err := b.expand(c)
			if err != nil {
				return nil, err
			}
			n.children = append(n.children, cn)
		}
		if len(n.children) == 0 {
			if op == '|' {
				// An empty choice matches nothing at all.
				return &rnode{op: '|'}, nil
			}
			return &rnode{op: 'e'}, nil
		}
		return n, nil
	case pAll:
		return nil, fmt.Errorf("xs:all must be the whole content model")
	}
	panic("unreachable")
}

func (b *glushkov) symbol(t term, id int, n qname) *rnode {
	if len(b.pos) == 0 {
		b.pos = append(b.pos, position{})
	}
	b.pos = append(b.pos, position{t: t, id: id, n: n})
	return &rnode{op: 's', pos: len(b.pos) - 1}
}

// analyse computes nullable, first and last, and adds follow pairs.
func (b *glushkov) analyse(n *rnode) {
	for _, c := range n.children {
		b.analyse(c)
	}
	switch n.op {
	case 'e':
		n.nullable = true
	case 's':
		n.first, n.last = []int{n.pos}, []int{n.pos}
	case '|':
		n.nullable = false
		for _, c := range n.children {
			n.nullable = n.nullable || c.nullable
			n.first = append(n.first, c.first...)
			n.last = append(n.last, c.last...)
		}
	case '.':
		n.nullable = true
		for _, c := range n.children {
			if n.nullable {
				n.first = append(n.first, c.first...)
			}
			n.nullable = n.nullable && c.nullable
		}
		for i := len(n.children) - 1; i >= 0; i-- {
			n.last = append(n.last, n.children[i].last...)
			if !n.children[i].nullable {
				break
			}
		}
		// follow: last of each child to first of the following ones, up to
		// and including the first non-nullable one.
		for i, c := range n.children {
			for j := i + 1; j < len(n.children); j++ {
				d := n.children[j]
				for _, l := range c.last {
					b.follow[l] = append(b.follow[l], d.first...)
				}
				if !d.nullable {
					break
				}
			}
		}
	case '*', '+', '?':
		c := n.children[0]
		n.first, n.last = c.first, c.last
		n.nullable = n.op != '+' || c.nullable
		if n.op != '?' {
			for _, l := range c.last {
				b.follow[l] = append(b.follow[l], c.first...)
			}
		}
	}
}

// determinize runs the subset construction.
func (b *glushkov) determinize(root *rnode) (*automaton, error) {
	if root == nil {
		root = &rnode{op: 'e'}
	}
	if len(b.pos) == 0 {
		b.pos = append(b.pos, position{})
	}
	b.follow = make([][]int, len(b.pos))
	b.analyse(root)
	if root.op == 'e' || len(root.first) == 0 && root.nullable {
		return &automaton{empty: true, states: []dstate{{final: true}}}, nil
	}
	finalPos := make([]bool, len(b.pos))
	for _, l := range root.last {
		finalPos[l] = true
	}
	a := &automaton{}
	index := map[string]int32{}
	type pending struct {
		set   []int
		state int32
	}
	var work []pending
	add := func(set []int) (int32, error) {
		set = uniqueSorted(set)
		key := setKey(set)
		if st, ok := index[key]; ok {
			return st, nil
		}
		if len(a.states) >= maxStates {
			return 0, fmt.Errorf("the content model is too large (more than %d states)", maxStates)
		}
		st := int32(len(a.states))
		index[key] = st
		a.states = append(a.states, dstate{})
		work = append(work, pending{set, st})
		return st, nil
	}
	// The initial state is the set {0}, whose follow set is first(root).
	b.follow[0] = root.first
	if _, err := add([]int{0}); err != nil {
		return nil, err
	}
	a.states[0].final = root.nullable
	for len(work) > 0 {
		w := work[0]
		work = work[1:]
		st := &a.states[w.state]
		var cand []int
		for _, p := range w.set {
			if p != 0 && finalPos[p] {
				st.final = true
			}
			cand = append(cand, b.follow[p]...)
		}
		cand = uniqueSorted(cand)
		// Group candidate positions by element name, and wildcards by
		// particle, keeping schema order for the expected list.
		var names []qname
		byName := map[qname][]int{}
		var wildIDs []int
		byWild := map[int][]int{}
		var expected []Expected
		seenExp := map[string]bool{}
		for _, p := range cand {
			pos := b.pos[p]
			var x Expected
			if pos.t.decl != nil {
				if _, ok := byName[pos.n]; !ok {
					names = append(names, pos.n)
				}
				byName[pos.n] = append(byName[pos.n], p)
				x = Expected{Name: pos.n.name()}
			} else {
				if _, ok := byWild[pos.id]; !ok {
					wildIDs = append(wildIDs, pos.id)
				}
				byWild[pos.id] = append(byWild[pos.id], p)
				x = pos.t.wild.expectation()
			}
			if k := x.String(); !seenExp[k] {
				seenExp[k] = true
				expected = append(expected, x)
			}
		}
		var edges []edge
		for _, n := range names {
			ps := byName[n]
			id := b.pos[ps[0]].id
			for _, p := range ps[1:] {
				if b.pos[p].id != id {
					return nil, fmt.Errorf("the content model is not deterministic: two particles compete for element %s", n)
				}
			}
			next, err := add(ps)
			if err != nil {
				return nil, err
			}
			edges = append(edges, edge{name: n, next: next, decl: b.pos[ps[0]].t.decl})
		}
		var wedges []wedge
		for i, id := range wildIDs {
			w := b.pos[byWild[id][0]].t.wild
			for _, other := range wildIDs[:i] {
				if wildcardsOverlap(w, b.pos[byWild[other][0]].t.wild) {
					return nil, fmt.Errorf("the content model is not deterministic: two wildcards compete for the same elements")
				}
			}
			next, err := add(byWild[id])
			if err != nil {
				return nil, err
			}
			wedges = append(wedges, wedge{w: w, next: next})
		}
		st = &a.states[w.state] // add may have grown the slice
		st.edges, st.wild, st.expected = edges, wedges, expected
		if len(edges) > 8 {
			st.byName = make(map[qname]int32, len(edges))
			for i, e := range edges {
				st.byName[e.name] = int32(i)
			}
		}
	}
	return a, nil
}

func uniqueSorted(s []int) []int {
	sort.Ints(s)
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

func setKey(s []int) string {
	var b strings.Builder
	for _, v := range s {
		b.WriteString(itoa(v))
		b.WriteByte(',')
	}
	return b.String()
}

// wildcardsOverlap reports whether some namespace is allowed by both.
func wildcardsOverlap(a, b *wildcard) bool {
	if a.any || b.any {
		return true
	}
	if a.not && b.not {
		return true // both allow namespaces other than two given ones
	}
	if a.not {
		a, b = b, a
	}
	// a is a set
	for ns := range a.set {
		if b.allows(ns) {
			return true
		}
	}
	return false
}
