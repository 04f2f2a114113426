//go:build !js

// Natively only: these tests crawl real HTTP servers on 127.0.0.1.

package explorer_test

import (
	"context"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rscheck/rscheck/explorer"
	"github.com/rscheck/rscheck/explorer/explorertest"
	"github.com/rscheck/rscheck/validator"
)

// peakHeap runs fn while sampling the live heap every millisecond, and
// returns the highest value seen above the heap before fn (after a GC).
// The generating server runs in the same process: its (small, streaming)
// buffers are included.
func peakHeap(fn func()) (peak uint64) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var max atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		var m runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-t.C:
				runtime.ReadMemStats(&m)
				if m.HeapAlloc > max.Load() {
					max.Store(m.HeapAlloc)
				}
			}
		}
	}()
	fn()
	close(done)
	wg.Wait()
	if max.Load() < base {
		return 0
	}
	return max.Load() - base
}

func exploreLarge(t testing.TB, l *explorertest.Large, opts *explorer.Options) *explorer.Result {
	res, err := explorer.Explore(context.Background(), l.WellKnown, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Findings() {
		if f.Severity == validator.Error {
			t.Fatalf("unexpected error: %s", f)
		}
	}
	return res
}

// TestMemoryLargeSource explores generated Sources of 20,000 and 100,000
// resources (a Resource List Index of two 50,000-entry lists) and checks
// that the peak heap grows with the resources only by the compact set the
// explorer keeps for duplicate detection.
func TestMemoryLargeSource(t *testing.T) {
	if testing.Short() {
		t.Skip("explores 120,000 generated resources")
	}
	// A GC at every 10% of growth makes HeapAlloc samples close to the
	// live heap rather than to the garbage not yet collected.
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	peaks := map[int]uint64{}
	for _, n := range []int{20_000, 100_000} {
		l := explorertest.NewLarge(t, n)
		var res *explorer.Result
		peaks[n] = peakHeap(func() { res = exploreLarge(t, l, nil) })
		if res.Stats.Resources != int64(n) {
			t.Fatalf("saw %d resources, want %d", res.Stats.Resources, n)
		}
		t.Logf("%d resources: peak heap %.1f MiB above the baseline", n, float64(peaks[n])/(1<<20))
	}
	per := (float64(peaks[100_000]) - float64(peaks[20_000])) / 80_000
	// The validator keeps, while it reads a document, the <loc>s of its
	// entries (RS330, duplicates within a document): with the two
	// 50,000-entry lists read at once, that is most of the difference.
	t.Logf("marginal cost: %.0f bytes per resource, the explorer's set and the validator's per-document state together (the set alone: ResourceCost = %d bytes, about 55 with the map, see TestResourceSetCost)", per, explorer.ResourceCost)
	if per > 200 {
		t.Errorf("memory grows by %.0f bytes per resource, want at most 200", per)
	}
	if peaks[100_000] > 96<<20 {
		t.Errorf("peak heap %d MiB for 100,000 resources, want at most 96 MiB", peaks[100_000]>>20)
	}
}

// BenchmarkExplore explores a generated Source of 100,000 resources.
func BenchmarkExplore(b *testing.B) {
	l := explorertest.NewLarge(b, 100_000)
	b.ResetTimer()
	for range b.N {
		exploreLarge(b, l, nil)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N*100_000)/b.Elapsed().Seconds(), "resources/s")
	// The heap is sampled in a run of its own: sampling stops the world.
	peak := peakHeap(func() { exploreLarge(b, l, nil) })
	b.ReportMetric(float64(peak)/(1<<20), "peak-MiB")
}

// BenchmarkExploreAudit explores the same Source and audits 1,000 of its
// resources, served by the same test server.
func BenchmarkExploreAudit(b *testing.B) {
	l := explorertest.NewLarge(b, 100_000)
	b.ResetTimer()
	for range b.N {
		res := exploreLarge(b, l, &explorer.Options{Audit: 1000})
		if res.Audit.Checked != 1000 || res.Audit.Mismatches != 0 {
			b.Fatalf("audit %+v", res.Audit)
		}
	}
}
