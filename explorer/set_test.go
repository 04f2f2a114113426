package explorer

import (
	"runtime"
	"strconv"
	"testing"
	"time"
)

// TestResourceSetCost measures the memory of the set the explorer keeps
// per resource of a Resource List: ResourceCost bytes of key and facts,
// plus the map's own overhead.
func TestResourceSetCost(t *testing.T) {
	const n = 100_000
	keys := make([]uint64, n)
	for i := range keys {
		keys[i] = uriKey("http://example.com/resource/" + strconv.Itoa(i))
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s := newScope()
	for i, k := range keys {
		s.rl[k] = resFact{doc: 1, line: int32(i), length: 10, digest: k, alg: 1}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	per := float64(after.HeapAlloc-before.HeapAlloc) / n
	t.Logf("%d resources: %.1f bytes each in the set (key and facts: %d bytes)", n, per, ResourceCost)
	if per > 100 {
		t.Errorf("%.1f bytes per resource, want at most 100", per)
	}
	runtime.KeepAlive(s)
}

func TestSampleIsBottomK(t *testing.T) {
	s := sample{k: 3}
	for i := 100; i > 0; i-- {
		k := uint64(i * 7 % 101)
		if s.wants(k) {
			s.add(&auditItem{key: k})
		}
	}
	got := map[uint64]bool{}
	for _, it := range s.items {
		got[it.key] = true
	}
	if len(got) != 3 || !got[1] || !got[2] || !got[3] {
		t.Errorf("sample keys %v, want the 3 smallest (1, 2, 3)", got)
	}
}

// TestSampleKeepsBestEntry adds the entries of one resource in every order
// and checks that the sample keeps the same one: the Resource List's, or
// of changes only, the latest.
func TestSampleKeepsBestEntry(t *testing.T) {
	list := &Document{URL: "http://example.org/resourcelist.xml"}
	changes := &Document{URL: "http://example.org/changelist.xml"}
	day := func(d int) time.Time { return time.Date(2024, 1, d, 0, 0, 0, 0, time.UTC) }
	entries := map[string]*auditItem{
		"listed":  {doc: list, at: pos{Line: 9}},
		"created": {doc: changes, at: pos{Line: 5}, change: "created", datetime: day(1)},
		"updated": {doc: changes, at: pos{Line: 7}, change: "updated", datetime: day(2)},
	}
	orders := [][]string{
		{"listed", "created", "updated"}, {"created", "listed", "updated"}, {"updated", "created", "listed"},
		{"created", "updated"}, {"updated", "created"},
	}
	for _, order := range orders {
		s := sample{k: -1}
		for _, name := range order {
			it := *entries[name]
			it.key = 42
			if s.wants(it.key) {
				s.add(&it)
			}
		}
		want := "listed"
		if len(order) == 2 {
			want = "updated"
		}
		if len(s.items) != 1 {
			t.Fatalf("%v: %d items, want 1", order, len(s.items))
		}
		if got := s.items[0]; got.doc != entries[want].doc || got.at.Line != entries[want].at.Line {
			t.Errorf("%v: kept the entry at %s:%d, want the %s one", order, got.doc.URL, got.at.Line, want)
		}
	}
}
