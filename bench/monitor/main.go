// Command monitor measures the notification monitor's latency on
// loopback: the time from a Source's publication (its POST to the hub) to
// the monitor having the checked notification (relayed by the hub,
// signature verified, queued, validated and checked). It runs the
// fixture hub and Source of package monitortest and a Monitor in one
// process, and publishes change notifications in two ways:
//
//   - paced: one at a time, the next once the previous is checked: the
//     latency of one notification;
//   - burst: all at once, as fast as the Source can post them: the
//     latency under load, queueing included, and the throughput.
//
// Usage:
//
//	go run ./bench/monitor [-n 1000] [-mode paced|burst|both] [-entries 2] [-no-secret]
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/rscheck/rscheck/explorer/monitor"
	"github.com/rscheck/rscheck/explorer/monitor/monitortest"
)

func main() {
	n := flag.Int("n", 1000, "notifications to publish per mode")
	mode := flag.String("mode", "both", "paced, burst or both")
	noSecret := flag.Bool("no-secret", false, "subscribe without a secret (no signatures)")
	flag.Parse()
	log.SetFlags(0)

	fmt.Printf("%s, %d CPU, %s %s/%s\n", time.Now().Format(time.DateOnly), runtime.NumCPU(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	for _, md := range []string{"paced", "burst"} {
		if *mode != "both" && *mode != md {
			continue
		}
		lat, wall, bad := measure(md, *n, *noSecret)
		slices.Sort(lat)
		q := func(p int) time.Duration { return lat[(len(lat)*p+99)/100-1] }
		fmt.Printf("%-6s n=%d  median %s  p95 %s  p99 %s  max %s  %.0f notifications/s  (%d with findings)\n",
			md, len(lat), round(q(50)), round(q(95)), round(q(99)), round(lat[len(lat)-1]), float64(len(lat))/wall.Seconds(), bad)
	}
}

func round(d time.Duration) time.Duration { return d.Round(10 * time.Microsecond) }

// measure publishes n notifications and returns the latency of each, the
// wall time from the first publication to the last check, and how many
// notifications had findings (none should).
func measure(mode string, n int, noSecret bool) ([]time.Duration, time.Duration, int) {
	ctx := context.Background()
	hub := monitortest.StartHub(nil)
	defer hub.Close()
	src := monitortest.StartSource(hub, nil)
	defer src.Close()
	cb := httptest.NewServer(nil)
	defer cb.Close()

	var mu sync.Mutex
	checked := map[time.Time]time.Time{} // checked time by until
	bad := 0
	arrived := make(chan struct{}, 1)
	m, err := monitor.New(&monitor.Options{PublicURL: cb.URL + "/", NoSecret: noSecret, QueueSize: n, OnEvent: func(ev monitor.Event) {
		if ev.Kind != monitor.EventNotification {
			return
		}
		mu.Lock()
		checked[ev.Notification.Until] = ev.Notification.Checked
		if len(ev.Notification.Report.Findings) > 0 {
			bad++
		}
		mu.Unlock()
		select {
		case arrived <- struct{}{}:
		default:
		}
	}})
	if err != nil {
		log.Fatal(err)
	}
	cb.Config.Handler = m
	s, err := monitor.Discover(ctx, src.ChangeTopic, nil)
	if err != nil {
		log.Fatal(err)
	}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- m.Run(runCtx, s) }()
	defer func() {
		stop()
		if err := <-done; err != nil {
			log.Fatal(err)
		}
	}()
	for hub.Active(src.ChangeTopic) == 0 {
		time.Sleep(time.Millisecond)
	}
	// Warm up: the first notification compiles the schemas.
	pubs := []*monitortest.Publication{publish(ctx, src)}
	wait(&mu, checked, arrived, pubs[0])

	pubs = pubs[:0]
	start := time.Now()
	for i := 0; i < n; i++ {
		p := publish(ctx, src)
		pubs = append(pubs, p)
		if mode == "paced" {
			wait(&mu, checked, arrived, p)
		}
	}
	lat := make([]time.Duration, 0, n)
	var last time.Time
	for _, p := range pubs {
		t := wait(&mu, checked, arrived, p)
		lat = append(lat, t.Sub(p.Published))
		if t.After(last) {
			last = t
		}
	}
	mu.Lock()
	defer mu.Unlock()
	return lat, last.Sub(start), bad
}

func publish(ctx context.Context, src *monitortest.Source) *monitortest.Publication {
	p, err := src.PublishChange(ctx, monitortest.Good)
	if err != nil {
		log.Fatal(err)
	}
	return p
}

// wait waits until the notification p published is checked and returns
// when it was.
func wait(mu *sync.Mutex, checked map[time.Time]time.Time, arrived chan struct{}, p *monitortest.Publication) time.Time {
	deadline := time.After(30 * time.Second)
	for {
		mu.Lock()
		t, ok := checked[p.Until]
		mu.Unlock()
		if ok {
			return t
		}
		select {
		case <-arrived:
		case <-time.After(10 * time.Millisecond):
		case <-deadline:
			fmt.Fprintf(os.Stderr, "the notification published at %s never arrived\n", p.Published.Format(time.StampMicro))
			os.Exit(1)
		}
	}
}
