package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/rscheck/rscheck/explorer/dump"
	"github.com/rscheck/rscheck/validator"
	"github.com/rscheck/rscheck/validator/report"
)

// maxKept bounds the bytes of a URL or standard input kept in memory to
// show source excerpts; larger inputs are reported without them.
const maxKept = 64 << 20

// stdinSource names standard input in reports.
const stdinSource = "<stdin>"

func validateUsage(w io.Writer) {
	fmt.Fprint(w, `Usage: rscheck validate [flags] FILE|URL|- ...

Validate checks ResourceSync documents (Source Descriptions, Capability
Lists, Resource and Change Lists and their indexes, dumps, manifests and
notifications) and plain Sitemaps against the ResourceSync specifications
and their XML schemas, and reports what it finds.

Inputs are files (.xml, gzip-compressed .xml.gz, or a dump package .zip,
whose manifest.xml and bitstreams are checked), http or https URLs, or
- for standard input. They are validated in order and reported together.
An input that cannot be read (a missing file, an HTTP error) is reported
on standard error and the others are still validated.

Flags:

`)
	printFlags(w, validateFlags(new(validateConfig)))
	fmt.Fprint(w, `
Examples:

	rscheck validate changelist.xml resourcelist.xml.gz
	rscheck validate --format html -o report.html https://example.org/.well-known/resourcesync
	curl -s https://example.org/rl.xml | rscheck validate -
	rscheck validate --format junit -o rscheck.xml site/*.xml      # for CI test reports
	rscheck validate --format sarif -o rscheck.sarif site/*.xml    # for code scanning
	rscheck validate --schema xhtml-link.xsd sitemap.xml

Exit status: 0 when no document has an error finding, 1 when one has,
2 for usage or I/O problems (2 wins over 1). Colour is used on a terminal
unless --no-color is given or NO_COLOR is set.
`)
}

// validateConfig holds the flags of the validate command.
type validateConfig struct {
	reportConfig
	schemaOnly bool
	timeout    time.Duration
}

func validateFlags(c *validateConfig) *flag.FlagSet {
	fs := newFlagSet("validate")
	c.reportConfig.register(fs)
	fs.BoolVar(&c.schemaOnly, "schema-only", false, "report only XML and XML Schema findings, no ResourceSync rules")
	fs.DurationVar(&c.timeout, "timeout", 30*time.Second, "give up on a URL after `duration`")
	return fs
}

func runValidate(e *env, args []string) int {
	var c validateConfig
	fs := validateFlags(&c)
	if status, ok := parse(e, fs, args, validateUsage); !ok {
		return status
	}
	inputs := fs.Args()
	usageErr := func(format string, args ...any) int {
		e.errorf("validate", format+"\nRun 'rscheck help validate' for usage.", args...)
		return exitTrouble
	}
	switch {
	case len(inputs) == 0:
		return usageErr("no input: give files, URLs or - for standard input")
	case c.problem() != "":
		return usageErr("%s", c.problem())
	case c.timeout <= 0:
		return usageErr("--timeout must be positive")
	case count(inputs, "-") > 1:
		return usageErr("standard input (-) can be read only once")
	}
	opts, status := c.validatorOptions(e, "validate")
	if opts == nil {
		return status
	}
	opts.SchemaOnly = c.schemaOnly

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	v := &validation{env: e, opts: opts, fetch: newFetcher(c.timeout, "rscheck/"+toolVersion()),
		excerpts: c.format == "text" || c.format == "html"}
	status = exitOK
	for _, in := range inputs {
		if err := v.input(ctx, in); err != nil {
			e.errorf("validate", "%s: %v", in, err)
			status = exitTrouble
		}
		if ctx.Err() != nil {
			return exitTrouble
		}
	}

	res := report.NewResult(v.docs)
	res.Version = toolVersion()
	for i, src := range v.sources {
		if src != nil {
			// Excerpts are a convenience: a source that changed or
			// vanished since validation just goes without.
			_ = src(func(r io.Reader) error { return res.AddExcerpts(i, r) })
		}
	}
	if err := writeReport(e, c.output, c.format, res, c.reportOptions(e)); err != nil {
		e.errorf("validate", "%v", err)
		return exitTrouble
	}
	if status == exitOK && res.Summary.Errors > 0 {
		status = exitFindings
	}
	return status
}

// validation is the state of one run of the validate command.
type validation struct {
	env      *env
	opts     *validator.Options
	fetch    *fetcher
	excerpts bool // whether the report format shows source excerpts
	docs     []*validator.Report
	// sources re-open each document's source for excerpts (nil when it
	// cannot be read again).
	sources []func(use func(io.Reader) error) error
}

// input validates one input. An error means it could not be read; it is
// then left out of the report.
func (v *validation) input(ctx context.Context, in string) error {
	var (
		src    io.ReadCloser
		source = in
		err    error
	)
	switch {
	case in == "-":
		src, source = io.NopCloser(v.env.stdin), stdinSource
	case isURL(in):
		src, err = v.fetch.open(ctx, in)
	default:
		src, err = openFile(in)
	}
	if err != nil {
		return err
	}
	defer src.Close()

	br := bufio.NewReaderSize(src, 64<<10)
	if magic, _ := br.Peek(4); string(magic) == "PK\x03\x04" {
		return v.pkg(ctx, in, source, br)
	}
	var kept *keptBytes
	var r io.Reader = br
	if v.excerpts && (in == "-" || isURL(in)) {
		// What streamed by cannot be read again: keep it, up to a bound.
		kept = &keptBytes{max: maxKept}
		r = io.TeeReader(br, kept)
	}
	rep, err := validator.Validate(ctx, r, v.opts)
	if err != nil {
		return err
	}
	rep.Source = source
	v.docs = append(v.docs, rep)

	var reopen func(func(io.Reader) error) error
	switch {
	case !v.excerpts || len(rep.Findings) == 0:
	case kept != nil && !kept.overflow:
		reopen = func(use func(io.Reader) error) error { return use(bytes.NewReader(kept.buf.Bytes())) }
	case kept == nil:
		reopen = func(use func(io.Reader) error) error {
			f, err := os.Open(in)
			if err != nil {
				return err
			}
			defer f.Close()
			return use(f)
		}
	}
	v.sources = append(v.sources, reopen)
	return nil
}

// maxPackageBytes bounds a dump package read from a URL or standard input,
// which has to be held in memory: ZIP needs random access.
const maxPackageBytes = 512 << 20

// pkg checks a ZIP dump package: its manifest.xml, validated, and every
// bitstream against it. The report is the Manifest's, with the package's
// findings; it has no excerpts (its lines are those of manifest.xml).
func (v *validation) pkg(ctx context.Context, in, source string, r io.Reader) error {
	var ra io.ReaderAt
	var size int64
	if f, err := os.Open(in); err == nil && in != "-" && !isURL(in) {
		defer f.Close()
		fi, err := f.Stat()
		if err != nil {
			return err
		}
		ra, size = f, fi.Size()
	} else {
		if err == nil {
			f.Close()
		}
		data, err := io.ReadAll(io.LimitReader(r, maxPackageBytes+1))
		if err != nil {
			return err
		}
		if len(data) > maxPackageBytes {
			return fmt.Errorf("ZIP package larger than %d bytes; save it to a file and validate the file", maxPackageBytes)
		}
		ra, size = bytes.NewReader(data), int64(len(data))
	}
	res, err := dump.Check(ctx, ra, size, &dump.Options{Name: source, Validator: v.opts})
	if err != nil {
		return err
	}
	res.Report.Source = source
	v.docs = append(v.docs, res.Report)
	v.sources = append(v.sources, nil)
	return nil
}

// openFile opens a local document, refusing directories with a clear message.
func openFile(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, errors.New("no such file")
		}
		return nil, err
	}
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		f.Close()
		return nil, errors.New("is a directory")
	}
	return f, nil
}

// isURL reports whether an input names a URL rather than a file. Only
// http and https are fetched; other schemes are rejected by the fetcher.
func isURL(in string) bool {
	u, err := url.Parse(in)
	return err == nil && len(u.Scheme) > 1 && strings.HasPrefix(in[len(u.Scheme):], "://")
}

// keptBytes is an io.Writer that keeps up to max bytes and then gives up
// (it never fails the stream it watches).
type keptBytes struct {
	buf      bytes.Buffer
	max      int
	overflow bool
}

func (k *keptBytes) Write(p []byte) (int, error) {
	if !k.overflow {
		if k.buf.Len()+len(p) > k.max {
			k.overflow = true
			k.buf = bytes.Buffer{}
		} else {
			k.buf.Write(p)
		}
	}
	return len(p), nil
}

// writeReport renders res to the named file, or to standard output.
func writeReport(e *env, output, format string, res *report.Result, opts report.Options) error {
	if output == "" || output == "-" {
		return report.Write(format, e.stdout, res, opts)
	}
	f, err := os.Create(output)
	if err != nil {
		return err
	}
	if err := report.Write(format, f, res, opts); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// useColor decides whether the report is coloured: only text written to
// a terminal, and neither --no-color nor NO_COLOR (https://no-color.org:
// set and not empty) asks otherwise.
func useColor(format, output string, noColor bool, noColorEnv string, terminal bool) bool {
	return format == "text" && (output == "" || output == "-") && !noColor && noColorEnv == "" && terminal
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func count(list []string, s string) int {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}
