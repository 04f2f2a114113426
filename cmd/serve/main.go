// Command serve serves rscheck's browser app: the page, its scripts and
// the WebAssembly build of rscheck, all embedded in the binary.
//
// Usage:
//
//	serve [--addr host:port] [--proxy]
//
// The page checks documents in the browser: nothing it checks is sent to
// the server. With --proxy, the server also fetches http and https URLs
// for the page (GET /proxy?url=…), so that Sources that do not allow
// cross-origin reads (CORS) can be explored; the proxy answers only
// clients on this machine. Build the WebAssembly module first (make
// wasm); SIGINT or SIGTERM stop the server gracefully.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/rscheck/rscheck/web"
)

// shutdownTimeout is how long requests under way may take to finish once
// the server is asked to stop.
const shutdownTimeout = 10 * time.Second

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr, nil); err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		os.Exit(2)
	}
}

// run serves until ctx is done, then shuts the server down. ready, if not
// nil, receives the address listened on.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, ready chan<- string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "listen on `host:port`")
	proxy := fs.Bool("proxy", false, "let the page fetch documents through this server (for Sources without CORS); loopback clients only")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: serve [--addr host:port] [--proxy]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("unexpected arguments: %v", fs.Args())
	}

	h := web.NewHandler(web.Options{Proxy: *proxy})
	if _, err := web.Static().Open("rscheck.wasm"); err != nil {
		fmt.Fprintln(stderr, "serve: warning: this binary has no rscheck.wasm; build it with \"make wasm\" and rebuild serve")
	}
	// Compress the module now rather than on the first page load.
	go h.Prepare()

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	url := "http://" + ln.Addr().String() + "/"
	fmt.Fprintf(stdout, "rscheck: serving %s", url)
	if *proxy {
		fmt.Fprint(stdout, " (with the proxy)")
	}
	fmt.Fprintln(stdout)
	if ready != nil {
		ready <- ln.Addr().String()
	}

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
