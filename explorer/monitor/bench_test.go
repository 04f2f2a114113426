package monitor_test

import (
	"context"
	"net/http/httptest"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/rscheck/rscheck/explorer/monitor"
	"github.com/rscheck/rscheck/explorer/monitor/monitortest"
)

// BenchmarkLatency measures, on loopback, the time from a Source's
// publication (its POST to the hub) to the monitor having the checked
// notification (validated, with the monitor's checks done): the hub
// relays it to the callback, which verifies its signature and queues it,
// and the checks run. One notification at a time, so that the figure is
// the latency, not the queueing of a burst (bench/monitor measures both).
// The p50 and p95 metrics are in milliseconds.
func BenchmarkLatency(b *testing.B) {
	if runtime.GOOS == "js" {
		b.Skip("js/wasm cannot listen: the fixtures need 127.0.0.1")
	}
	ctx := context.Background()
	hub := monitortest.StartHub(nil)
	defer hub.Close()
	src := monitortest.StartSource(hub, nil)
	defer src.Close()
	cb := httptest.NewServer(nil)
	defer cb.Close()

	var mu sync.Mutex
	checked := map[time.Time]time.Time{} // by until
	arrived := make(chan struct{}, 1)
	m, err := monitor.New(&monitor.Options{PublicURL: cb.URL + "/", OnEvent: func(ev monitor.Event) {
		if ev.Kind == monitor.EventNotification {
			mu.Lock()
			checked[ev.Notification.Until] = ev.Notification.Checked
			mu.Unlock()
			select {
			case arrived <- struct{}{}:
			default:
			}
		}
	}})
	if err != nil {
		b.Fatal(err)
	}
	cb.Config.Handler = m
	s, err := monitor.Discover(ctx, src.ChangeTopic, nil)
	if err != nil {
		b.Fatal(err)
	}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- m.Run(runCtx, s) }()
	defer func() {
		stop()
		<-done
	}()
	for hub.Active(src.ChangeTopic) == 0 {
		time.Sleep(time.Millisecond)
	}

	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := -1; i < b.N; i++ {
		if i == 0 {
			// The first notification, a warm-up, is not counted.
			lat = lat[:0]
			b.ResetTimer()
		}
		p, err := src.PublishChange(ctx, monitortest.Good)
		if err != nil {
			b.Fatal(err)
		}
		for {
			mu.Lock()
			t, ok := checked[p.Until]
			mu.Unlock()
			if ok {
				lat = append(lat, t.Sub(p.Published))
				break
			}
			select {
			case <-arrived:
			case <-time.After(5 * time.Second):
				b.Fatalf("notification %d never arrived", i+1)
			}
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
	b.ReportMetric(ms(lat[(len(lat)*95+99)/100-1]), "p95-ms")
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
