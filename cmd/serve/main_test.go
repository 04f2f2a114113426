package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/rscheck/rscheck/explorer/monitor/monitortest"
)

// start runs the server with args until the returned cancel is called.
func start(t *testing.T, args ...string) (addr string, stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	var out bytes.Buffer
	go func() { done <- run(ctx, append([]string{"--addr", "127.0.0.1:0"}, args...), &out, io.Discard, ready) }()
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("serve exited: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not start")
	}
	stopped := false
	stop = func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(shutdownTimeout + 5*time.Second):
			t.Fatal("serve did not stop")
			return nil
		}
	}
	t.Cleanup(func() { stop() })
	return addr, stop
}

func TestServes(t *testing.T) {
	addr, stop := start(t)
	resp, err := http.Get("http://" + addr + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Errorf("GET /: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if resp.Header.Get("Content-Security-Policy") == "" {
		t.Error("no CSP")
	}
	if err := stop(); err != nil {
		t.Errorf("shutdown: %v", err)
	}
	if _, err := http.Get("http://" + addr + "/"); err == nil {
		t.Error("the server still answers after shutdown")
	}
}

// TestGracefulShutdown stops the server while a request is under way: the
// request completes, then run returns.
func TestGracefulShutdown(t *testing.T) {
	entered := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		time.Sleep(500 * time.Millisecond)
		io.WriteString(w, "late but complete")
	}))
	defer slow.Close()
	addr, stop := start(t, "--proxy")

	type result struct {
		body string
		err  error
	}
	got := make(chan result, 1)
	go func() {
		resp, err := http.Get("http://" + addr + "/proxy?url=" + url.QueryEscape(slow.URL))
		if err != nil {
			got <- result{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		got <- result{string(b), err}
	}()
	<-entered
	began := time.Now()
	if err := stop(); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	if d := time.Since(began); d < 300*time.Millisecond {
		t.Errorf("run returned after %v, before the request under way finished", d)
	}
	r := <-got
	if r.err != nil || r.body != "late but complete" {
		t.Errorf("the request under way got %q, %v", r.body, r.err)
	}
}

func TestBadArguments(t *testing.T) {
	for _, args := range [][]string{{"--nope"}, {"extra"}, {"--addr", "127.0.0.1:99999"}} {
		if err := run(context.Background(), args, io.Discard, io.Discard, nil); err == nil {
			t.Errorf("serve %v: no error", args)
		}
	}
}

// TestMonitorShutdown: with --monitor, stopping the server unsubscribes
// the page's sessions before it exits.
func TestMonitorShutdown(t *testing.T) {
	hub := monitortest.NewHub(t, nil)
	src := monitortest.NewSource(t, hub, nil)
	addr, stop := start(t, "--monitor")
	base := "http://" + addr

	resp, err := http.Get(base + "/monitor/status.json")
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Enabled     bool
		CallbackURL string
	}
	json.NewDecoder(resp.Body).Decode(&st)
	resp.Body.Close()
	if !st.Enabled || st.CallbackURL != base+"/websub/" {
		t.Fatalf("status %+v, want the callbacks under %s/websub/", st, base)
	}

	post := func(path, body string) map[string]any {
		t.Helper()
		resp, err := http.Post(base+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var v map[string]any
		json.NewDecoder(resp.Body).Decode(&v)
		if resp.StatusCode >= 300 {
			t.Fatalf("POST %s: %d %v", path, resp.StatusCode, v)
		}
		return v
	}
	id, _ := post("/monitor/sessions", `{"url":"`+src.WellKnown+`"}`)["id"].(string)
	post("/monitor/sessions/"+id+"/subscribe", `{}`)
	deadline := time.Now().Add(10 * time.Second)
	for hub.Active(src.ChangeTopic) == 0 || hub.Active(src.FrameworkTopic) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the hub did not activate the subscriptions")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := stop(); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	if s := hub.Stats(); s.Unsubscribes != 2 {
		t.Errorf("after shutdown: %+v, want 2 unsubscriptions", s)
	}
}

func TestMonitorFlags(t *testing.T) {
	for _, args := range [][]string{{"--public-url", "https://example.net/"}, {"--monitor", "--public-url", "ftp://example.net/"}} {
		if err := run(context.Background(), append([]string{"--addr", "127.0.0.1:0"}, args...), io.Discard, io.Discard, nil); err == nil {
			t.Errorf("serve %v: no error", args)
		}
	}
}

func TestDefaultPublicURL(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1:8080": "http://127.0.0.1:8080/",
		"0.0.0.0:8080":   "http://127.0.0.1:8080/",
		"[::]:8080":      "http://127.0.0.1:8080/",
		"[::1]:8080":     "http://[::1]:8080/",
	} {
		a, err := net.ResolveTCPAddr("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := defaultPublicURL(a); got != want {
			t.Errorf("defaultPublicURL(%s) = %s, want %s", addr, got, want)
		}
	}
}
