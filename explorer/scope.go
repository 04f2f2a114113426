package explorer

import (
	"sync"

	"github.com/rscheck/rscheck/validator"
)

// scope is the set of resources of one Capability List: what its Resource
// List (all parts) lists, to find a resource listed twice across the parts
// of an index and to compare the Resource Dump's packages with it. The
// packages of a scope with a Resource List are read after the whole
// Resource List branch, so that each bitstream is compared as its Manifest
// entry is read, and nothing of the packages needs keeping.
//
// Locks: crawler.mu may be held while taking pmu; mu may be held while
// taking crawler.mu; never the other way round.
type scope struct {
	mu     sync.Mutex // guards rl and dumped
	rl     map[uint64]resFact
	dumped int // package manifest entries compared

	pmu       sync.Mutex // guards the fields below
	hasRL     bool
	hasRD     bool
	rlPending int      // documents of the Resource List branch not yet processed
	deferred  []func() // package tasks waiting for the Resource List branch
}

func newScope() *scope { return &scope{rl: map[uint64]resFact{}} }

// addListed records a resource of a Resource List. A resource already
// listed by another part of the index is reported on the later of the two
// in index order, whatever order the parts are read in.
func (s *scope) addListed(c *crawler, key uint64, f resFact, d *Document) {
	s.mu.Lock()
	old, dup := s.rl[key]
	if !dup {
		s.rl[key] = f
		s.mu.Unlock()
		return
	}
	if old.doc == f.doc {
		s.mu.Unlock()
		return // within one document: the validator's RS330 says so
	}
	first, later := old, f
	if c.docAfter(old.doc, f.doc) {
		first, later = f, old
		s.rl[key] = f
	}
	s.mu.Unlock()
	c.mu.Lock()
	fd, ld := c.byID[first.doc], c.byID[later.doc]
	c.mu.Unlock()
	c.addFinding(ld, finding(RuleDuplicateAcrossParts, pos{Line: int(later.line)},
		"this resource is also listed at line %d of %s, another list of the same index; a resource appears once in the union of a Resource List Index's lists", first.line, fd.URL))
}

// docAfter reports whether document a comes after document b in the
// order of their index (by entry number), or of creation otherwise.
func (c *crawler) docAfter(a, b int32) bool {
	c.mu.Lock()
	da, db := c.byID[a], c.byID[b]
	c.mu.Unlock()
	if da.Parent != nil && da.Parent == db.Parent {
		return da.ordinal > db.ordinal
	}
	return a > b
}

// merge moves the resources of a document's own scope (it was read before
// its place in the tree was known) into s.
func (s *scope) merge(c *crawler, from *scope, d *Document) {
	from.mu.Lock()
	rl := from.rl
	from.rl = map[uint64]resFact{}
	from.mu.Unlock()
	for k, f := range rl {
		s.addListed(c, k, f, d)
	}
}

// checkDumped compares a bitstream of a Resource Dump's package with the
// Resource List.
func (s *scope) checkDumped(c *crawler, pkg *Document, loc string, key uint64, length int64, alg uint8, dg uint64, e *validator.Entry) {
	s.pmu.Lock()
	hasRL := s.hasRL
	s.pmu.Unlock()
	if !hasRL {
		return
	}
	s.mu.Lock()
	s.dumped++
	f, ok := s.rl[key]
	if ok {
		f.inDump = true
		s.rl[key] = f
	}
	s.mu.Unlock()
	at := elemPos(e.Loc)
	if !ok {
		c.addFinding(pkg, finding(RuleListDumpAgree, at, "%s is in this package of the Resource Dump but not in the Resource List of the same Capability List; both describe the same set of resources", loc))
		return
	}
	c.mu.Lock()
	rlURL := c.byID[f.doc].URL
	c.mu.Unlock()
	if length >= 0 && f.length >= 0 && length != f.length {
		c.addFinding(pkg, finding(RuleListDumpAgree, attrPos(e.MD, "length"), "length is %d here but %d in the Resource List (%s, line %d) for %s", length, f.length, rlURL, f.line, loc))
	}
	if alg != 0 && alg == f.alg && dg != f.digest {
		c.addFinding(pkg, finding(RuleListDumpAgree, attrPos(e.MD, "hash"), "the %s digest differs from the Resource List's (%s, line %d) for %s", digestPref[alg-1], rlURL, f.line, loc))
	}
}
