package explorer

import (
	"runtime"
	"strconv"
	"testing"
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
