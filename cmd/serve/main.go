// Command serve serves rscheck's browser app: the page, its scripts and
// the WebAssembly build of rscheck, all embedded in the binary.
//
// Usage:
//
//	serve [--addr host:port] [--proxy] [--monitor [--public-url URL]]
//
// The page checks documents in the browser: nothing it checks is sent to
// the server. With --proxy, the server also fetches http and https URLs
// for the page (GET /proxy?url=…), so that Sources that do not allow
// cross-origin reads (CORS) can be explored; the proxy answers only
// clients on this machine. Build the WebAssembly module first (make
// wasm); SIGINT or SIGTERM stop the server gracefully.
//
// With --monitor, the page can also monitor a Source's change and
// framework notifications as they arrive (see web.MonitorServer). A
// browser cannot receive the hubs' requests, so this server subscribes on
// the page's behalf and holds the WebSub callbacks, under
// --public-url/websub/: the hubs must be able to reach that URL. The
// default is the address listened on, which only a hub on this machine
// (or network) reaches; behind a proxy or tunnel, give its URL. The API
// the page drives answers only clients on this machine; on shutdown every
// session is unsubscribed before the server exits.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/rscheck/rscheck/explorer/monitor"
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
	mon := fs.Bool("monitor", false, "let the page monitor a Source's notifications: this server subscribes to its WebSub hubs and holds the callbacks; loopback clients only")
	public := fs.String("public-url", "", "with --monitor, the `URL` at which the hubs reach this server (default http://ADDR/); the callbacks are under URL/websub/")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: serve [--addr host:port] [--proxy] [--monitor [--public-url URL]]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	if *public != "" {
		if !*mon {
			return errors.New("--public-url is for --monitor")
		}
		if u, err := url.Parse(*public); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("--public-url %q is not an http or https URL", *public)
		}
	}

	app := web.NewHandler(web.Options{Proxy: *proxy})
	if _, err := web.Static().Open("rscheck.wasm"); err != nil {
		fmt.Fprintln(stderr, "serve: warning: this binary has no rscheck.wasm; build it with \"make wasm\" and rebuild serve")
	}
	// Compress the module now rather than on the first page load.
	go app.Prepare()

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	var ms *web.MonitorServer
	if *mon {
		pub := *public
		if pub == "" {
			pub = defaultPublicURL(ln.Addr())
		}
		ms, err = web.NewMonitorServer(web.MonitorOptions{
			PublicURL: pub,
			Version:   version(),
			Log:       func(format string, args ...any) { fmt.Fprintf(stdout, format+"\n", args...) },
		})
		if err != nil {
			ln.Close()
			return err
		}
	}
	h := web.WithMonitor(app, ms)
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
	if ms != nil {
		fmt.Fprintf(stdout, "rscheck: monitoring on: the hubs must reach the callbacks at %s\n", ms.CallbackURL())
		if *public == "" {
			fmt.Fprintln(stdout, "rscheck: that is this server's own address, which hubs elsewhere cannot reach: give --public-url with the URL they can (a proxy, a tunnel)")
		}
	}
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
	fmt.Fprintln(stdout, "rscheck: stopping")
	if ms != nil {
		// Unsubscribe first, while the callbacks still answer the hubs'
		// verifications; this also ends the pages' event streams, which
		// Shutdown would wait for.
		mctx, cancel := context.WithTimeout(context.Background(), monitor.DefaultUnsubscribeTimeout+5*time.Second)
		err := ms.Close(mctx)
		cancel()
		if err != nil {
			fmt.Fprintf(stderr, "serve: the monitor did not stop in time: %v\n", err)
		}
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

// defaultPublicURL is the callback base when --public-url is not given:
// the address listened on, with a loopback address for an unspecified
// one (":8080"), which no hub could call.
func defaultPublicURL(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://" + addr.String() + "/"
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}

// version is the module's version, as the build recorded it.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}
