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
	"strings"
	"syscall"
	"time"

	"github.com/rscheck/rscheck/explorer"
	"github.com/rscheck/rscheck/explorer/monitor"
	"github.com/rscheck/rscheck/validator"
)

func monitorUsage(w io.Writer) {
	fmt.Fprint(w, `Usage: rscheck monitor --listen ADDR [--public-url URL] [flags] URL

Monitor subscribes to a Source's notification channels as a WebSub
subscriber and checks every notification its hubs deliver, as it arrives:
the payload (every document rule), its delivery (Content-Type, Link self
and hub, X-Hub-Signature), its channel, its from/until period against the
notifications before it, and its index links against the Source's
hierarchy. With --follow, the changes of each change notification are
looked for in the Source's Change List.

URL is a Source (any URL 'rscheck explore' starts from: every channel its
Capability Lists advertise is monitored) or a topic URI (that channel
only; its hub comes from its Link header).

The hubs call back on --listen; --public-url is how they reach it (the
default is http://ADDR/, enough for a hub on the same machine or network;
give the URL of a proxy or tunnel otherwise). Each subscription has its
own callback under it, and its own random secret unless --no-secret.

Every notification is printed with its findings as it arrives, on
standard error (on standard output when the report goes to a file with
-o). The monitoring ends after --duration, or on Ctrl-C: the monitor
unsubscribes from every channel, then writes the report: one document per
channel, then one per notification received ("TOPIC#N (received TIME)")
and per request refused.

Flags:

`)
	printFlags(w, monitorFlags(new(monitorConfig)))
	fmt.Fprint(w, `
Examples:

	rscheck monitor --listen :8080 --public-url https://rscheck.example.net/ https://example.org/
	rscheck monitor --listen 127.0.0.1:8080 --duration 10m --follow --format html -o report.html https://example.org/dataset1/change/

Exit status: 0 when no document has an error finding, 1 when one has,
2 for usage problems, when nothing could be monitored (no channel found,
no subscription verified) or the report could not be written.
`)
}

// monitorConfig holds the flags of the monitor command.
type monitorConfig struct {
	reportConfig
	quiet           bool
	listen, public  string
	duration, lease time.Duration
	follow          bool
	followGrace     time.Duration
	followInterval  time.Duration
	noSecret        bool
	timeout         time.Duration
	verifyTimeout   time.Duration
}

func monitorFlags(c *monitorConfig) *flag.FlagSet {
	fs := newFlagSet("monitor")
	fs.StringVar(&c.listen, "listen", "", "listen on `address` (host:port) for the hubs' requests")
	fs.StringVar(&c.public, "public-url", "", "the `URL` at which hubs reach --listen (default http://ADDR/)")
	fs.DurationVar(&c.duration, "duration", 0, "stop after `duration` (default: until interrupted)")
	fs.DurationVar(&c.lease, "lease", 0, "ask the hubs for a lease of `duration` (default: the hub's choice)")
	fs.BoolVar(&c.follow, "follow", false, "look for the changes of each change notification in the Source's Change List")
	fs.DurationVar(&c.followGrace, "follow-grace", monitor.DefaultFollowGrace, "with --follow, report changes not in the Change List after `duration`")
	fs.DurationVar(&c.followInterval, "follow-interval", monitor.DefaultFollowInterval, "with --follow, poll the Change List every `duration`")
	fs.BoolVar(&c.noSecret, "no-secret", false, "subscribe without hub.secret: deliveries are not signed")
	c.reportConfig.register(fs)
	fs.DurationVar(&c.timeout, "timeout", explorer.DefaultTimeout, "give up on a request to the Source or a hub after `duration`")
	fs.DurationVar(&c.verifyTimeout, "verify-timeout", monitor.DefaultVerifyTimeout, "wait `duration` for a hub's verification of intent")
	fs.BoolVar(&c.quiet, "quiet", false, "print nothing while monitoring")
	return fs
}

func runMonitor(e *env, args []string) int {
	var c monitorConfig
	fs := monitorFlags(&c)
	if status, ok := parse(e, fs, args, monitorUsage); !ok {
		return status
	}
	usageErr := func(format string, args ...any) int {
		e.errorf("monitor", format+"\nRun 'rscheck help monitor' for usage.", args...)
		return exitTrouble
	}
	switch {
	case fs.NArg() != 1:
		return usageErr("give one URL: a Source or a topic URI")
	case !isURL(fs.Arg(0)):
		return usageErr("%q is not an http or https URL", fs.Arg(0))
	case c.listen == "":
		return usageErr("give --listen ADDR, where the hubs' requests arrive (and --public-url if they reach it by another URL)")
	case c.public != "" && !isHTTPURL(c.public):
		return usageErr("--public-url %q is not an http or https URL", c.public)
	case c.problem() != "":
		return usageErr("%s", c.problem())
	case c.duration < 0 || c.lease < 0 || c.timeout <= 0 || c.verifyTimeout <= 0 || c.followGrace <= 0 || c.followInterval <= 0:
		return usageErr("durations must be positive")
	case c.lease > 0 && c.lease < time.Second:
		return usageErr("--lease is given in whole seconds to the hub; %s is less than one", c.lease)
	}
	vo, status := c.validatorOptions(e, "monitor")
	if vo == nil {
		return status
	}

	ln, err := net.Listen("tcp", c.listen)
	if err != nil {
		e.errorf("monitor", "%v", err)
		return exitTrouble
	}
	defer ln.Close()
	public := c.public
	if public == "" {
		public = "http://" + ln.Addr().String() + "/"
	}

	// The live output goes where the report does not.
	live := e.stderr
	if c.output != "" && c.output != "-" {
		live = e.stdout
	}
	if c.quiet {
		live = io.Discard
	}
	pr := &livePrinter{w: live}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if c.duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.duration)
		defer cancel()
	}

	eo := monitor.DefaultExplorerOptions()
	eo.Fetcher = &explorer.HTTPFetcher{UserAgent: "rscheck/" + toolVersion()}
	eo.UserAgent = "rscheck/" + toolVersion()
	eo.Validator = vo
	eo.Timeout = c.timeout
	pr.printf("discovering the channels of %s", fs.Arg(0))
	src, err := monitor.Discover(ctx, fs.Arg(0), eo)
	if err != nil {
		e.errorf("monitor", "%v", err)
		return exitTrouble
	}
	for _, ch := range src.Channels {
		pr.channel(ch)
	}

	m, err := monitor.New(&monitor.Options{
		PublicURL:      public,
		Client:         &http.Client{Timeout: c.timeout},
		Validator:      vo,
		Lease:          c.lease,
		NoSecret:       c.noSecret,
		VerifyTimeout:  c.verifyTimeout,
		Follow:         c.follow,
		FollowGrace:    c.followGrace,
		FollowInterval: c.followInterval,
		OnEvent:        pr.event,
	})
	if err != nil {
		e.errorf("monitor", "%v", err)
		return exitTrouble
	}
	srv := &http.Server{
		Handler:           m,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	pr.printf("listening on %s; hubs call back under %s", ln.Addr(), public)

	runErr := m.Run(ctx, src)
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	srv.Shutdown(shutdown)
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		e.errorf("monitor", "serving the callback: %v", err)
	}

	res := m.Result()
	res.Version = toolVersion()
	pr.printf("%s: %s", plural(res.Summary.Documents, "document"), verdict(&validator.Report{Errors: res.Summary.Errors, Warnings: res.Summary.Warnings, Infos: res.Summary.Infos}))
	if err := writeReport(e, c.output, c.format, res, c.reportOptions(e)); err != nil {
		e.errorf("monitor", "%v", err)
		return exitTrouble
	}
	switch {
	case errors.Is(runErr, monitor.ErrNotMonitored):
		e.errorf("monitor", "nothing was monitored: no subscription was verified (the report says why)")
		return exitTrouble
	case runErr != nil:
		e.errorf("monitor", "%v", runErr)
		return exitTrouble
	case res.Summary.Errors > 0:
		return exitFindings
	}
	return exitOK
}

// livePrinter prints the monitoring as it goes, one line per event and
// one per finding. Everything it prints from the network has its control
// characters replaced, so that a payload cannot drive the terminal.
type livePrinter struct {
	w io.Writer
}

func (p *livePrinter) printf(format string, args ...any) {
	fmt.Fprintf(p.w, "%s %s\n", time.Now().Format("15:04:05"), printable(fmt.Sprintf(format, args...)))
}

func (p *livePrinter) findings(fs []validator.Finding) {
	for _, f := range fs {
		fmt.Fprintf(p.w, "    %s\n", printable(f.String()))
	}
}

func (p *livePrinter) channel(ch *monitor.Channel) {
	what := ch.Capability
	if what == "" {
		what = "topic"
	}
	hub := ch.Hub
	if hub == "" {
		hub = "no hub"
	}
	p.printf("channel %s %s (hub %s)", what, ch.Topic, hub)
	p.findings(ch.Findings)
}

func (p *livePrinter) event(ev monitor.Event) {
	switch ev.Kind {
	case monitor.EventSubscribed:
		what := "subscription"
		if ev.Renewal {
			what = "renewal"
		}
		p.printf("%-12s %s: the hub %s accepted the %s", ev.Kind, ev.Topic, ev.Hub, what)
	case monitor.EventVerified, monitor.EventRenewed:
		p.printf("%-12s %s: lease %s, until %s", ev.Kind, ev.Topic, ev.Lease, clock(ev.Expires))
		p.findings(ev.Findings)
	case monitor.EventNotification:
		n := ev.Notification
		p.printf("#%-11d %s: %s, %d entries, %d bytes, latency %s: %s", n.Seq, ev.Topic, orNone(n.Capability), n.Report.Entries, n.Report.Bytes,
			n.Latency.Round(time.Millisecond), verdict(n.Report))
		p.findings(n.Report.Findings)
	case monitor.EventFollowed:
		n := ev.Notification
		p.printf("%-12s #%d %s", ev.Kind, n.Seq, ev.Topic)
		p.findings(ev.Findings)
	case monitor.EventRefused:
		where := ""
		if r := ev.Request; r != nil {
			where = fmt.Sprintf("%s %s (%d)", r.Method, r.Path, r.Status)
		}
		p.printf("%-12s %s: %s", ev.Kind, where, ev.Reason)
		if ev.Notification != nil {
			p.findings(ev.Notification.Report.Findings)
		} else {
			p.findings(ev.Findings)
		}
	default:
		line := fmt.Sprintf("%-12s %s", ev.Kind, ev.Topic)
		if ev.Reason != "" {
			line += ": " + ev.Reason
		}
		p.printf("%s", line)
		if ev.Kind != monitor.EventError { // an error's finding is its reason
			p.findings(ev.Findings)
		}
	}
}

// clock formats a time of the monitoring: the time of day, and the date
// when it is not today.
func clock(t time.Time) string {
	if y, m, d := t.Date(); time.Now().Day() != d || time.Now().Month() != m || time.Now().Year() != y {
		return t.Format("2006-01-02 15:04:05")
	}
	return t.Format("15:04:05")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func orNone(s string) string {
	if s == "" {
		return "no capability"
	}
	return s
}

// verdict sums a report up as the text report does.
func verdict(r *validator.Report) string {
	if r.Errors+r.Warnings+r.Infos == 0 {
		return "ok"
	}
	var parts []string
	for _, c := range []struct {
		n    int
		name string
	}{{r.Errors, "error"}, {r.Warnings, "warning"}, {r.Infos, "info"}} {
		if c.n > 0 {
			parts = append(parts, plural(c.n, c.name))
		}
	}
	return strings.Join(parts, ", ")
}

// printable replaces control characters, as the text report does.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return '�'
		}
		return r
	}, s)
}

// isHTTPURL reports whether s is an absolute http or https URL.
func isHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}
