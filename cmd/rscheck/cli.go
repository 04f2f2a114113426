package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/rscheck/rscheck/validator"
	"github.com/rscheck/rscheck/validator/report"
)

// Exit statuses. They say only what a CI job needs to know.
const (
	exitOK       = 0 // no error finding
	exitFindings = 1 // at least one error finding
	exitTrouble  = 2 // usage or I/O problem; wins over exitFindings
)

// version is set at link time (-ldflags "-X main.version=v1.2.3"); when
// it is not, the module version from the build information is used.
var version = ""

func toolVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// env is what a command sees of its process: streams and environment.
// Tests build one around buffers.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
}

// errorf prints a message on stderr, prefixed with the command name.
func (e *env) errorf(cmd, format string, args ...any) {
	fmt.Fprintf(e.stderr, "rscheck %s: %s\n", cmd, fmt.Sprintf(format, args...))
}

// command is a subcommand: its name, a one-line summary and its function.
type command struct {
	name, summary string
	run           func(e *env, args []string) int
	usage         func(w io.Writer)
}

func commands() []command {
	return []command{
		{"validate", "validate documents (files, URLs or standard input) and report the findings", runValidate, validateUsage},
		{"explore", "discover a Source and check its whole hierarchy", runExplore, exploreUsage},
		{"monitor", "subscribe to a Source's notifications and check each as it arrives", runMonitor, monitorUsage},
		{"rules", "list the rules rscheck checks", runRules, rulesUsage},
		{"explain", "describe one rule", runExplain, explainUsage},
		{"version", "print rscheck's version", runVersion, versionUsage},
		{"help", "show help for a command", nil, nil},
	}
}

// run runs rscheck with the given arguments (without the program name)
// and returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, getenv: os.Getenv}
	if len(args) == 0 {
		usage(e.stderr)
		return exitTrouble
	}
	name, rest := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		return runHelp(e, rest)
	case "-version", "--version":
		return runVersion(e, nil)
	}
	for _, c := range commands() {
		if c.name == name && c.run != nil {
			return c.run(e, rest)
		}
	}
	fmt.Fprintf(e.stderr, "rscheck: unknown command %q\nRun 'rscheck help' for usage.\n", name)
	return exitTrouble
}

func usage(w io.Writer) {
	fmt.Fprint(w, `rscheck checks ResourceSync (ANSI/NISO Z39.99-2017) documents for conformance.

Usage:

	rscheck <command> [arguments]

Commands:

`)
	for _, c := range commands() {
		fmt.Fprintf(w, "\t%-9s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, `
Examples:

	rscheck validate changelist.xml
	rscheck validate --format html -o report.html https://example.org/resourcelist.xml
	rscheck explore https://example.org/
	rscheck monitor --listen :8080 --public-url https://rscheck.example.net/ https://example.org/
	rscheck explain RS404

Run 'rscheck help <command>' for the flags of a command.
`)
}

func runHelp(e *env, args []string) int {
	if len(args) == 0 {
		usage(e.stdout)
		return exitOK
	}
	for _, c := range commands() {
		if c.name == args[0] && c.usage != nil {
			c.usage(e.stdout)
			return exitOK
		}
	}
	if args[0] == "help" {
		usage(e.stdout)
		return exitOK
	}
	fmt.Fprintf(e.stderr, "rscheck help: unknown command %q\nRun 'rscheck help' for the list.\n", args[0])
	return exitTrouble
}

func versionUsage(w io.Writer) {
	fmt.Fprint(w, "Usage: rscheck version\n\nVersion prints rscheck's version.\n")
}

func runVersion(e *env, args []string) int {
	fs := newFlagSet("version")
	if status, ok := parse(e, fs, args, versionUsage); !ok {
		return status
	}
	if fs.NArg() > 0 {
		e.errorf("version", "unexpected argument %q", fs.Arg(0))
		return exitTrouble
	}
	fmt.Fprintf(e.stdout, "rscheck %s\n", toolVersion())
	return exitOK
}

// newFlagSet returns a flag set that reports nothing itself: parse does.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parse parses args with fs, allowing flags after positional arguments
// (rscheck validate a.xml --format json), as people type them. "--" ends
// the flags. With -h it prints the usage on stdout; after an error it
// reports on stderr. ok is false when the command should return status.
func parse(e *env, fs *flag.FlagSet, args []string, usage func(io.Writer)) (status int, ok bool) {
	var positional []string
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			usage(e.stdout)
			return exitOK, false
		}
		if err != nil {
			e.errorf(fs.Name(), "%v\nRun 'rscheck help %s' for usage.", err, fs.Name())
			return exitTrouble, false
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if consumed := args[:len(args)-len(rest)]; len(consumed) > 0 && consumed[len(consumed)-1] == "--" {
			positional = append(positional, rest...)
			break
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
	// Let fs.Args() return every positional argument.
	fs.Parse(append([]string{"--"}, positional...))
	return exitOK, true
}

// printFlags lists the flags of fs in the "--name VALUE" form the usage
// texts use.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		name, text := flag.UnquoteUsage(f)
		dash := "--"
		if len(f.Name) == 1 {
			dash = "-"
		}
		line := "\t" + dash + f.Name
		if name != "" {
			line += " " + strings.ToUpper(name)
		}
		fmt.Fprintf(w, "%s\n\t\t%s", line, text)
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "[]" {
			fmt.Fprintf(w, " (default %s)", f.DefValue)
		}
		fmt.Fprintln(w)
	})
}

// reportConfig holds the flags validate, explore and monitor share: how
// documents are validated and how the report is written.
type reportConfig struct {
	format, output string
	rsVersion      string
	schemas        []string
	maxPerRule     int
	noColor        bool
	docBase        string
}

// register defines the shared flags in fs.
func (c *reportConfig) register(fs *flag.FlagSet) {
	fs.StringVar(&c.format, "format", "text", "report `format`: "+strings.Join(report.Formats(), ", "))
	fs.StringVar(&c.output, "o", "", "write the report to `file` instead of standard output")
	fs.StringVar(&c.rsVersion, "rs-version", validator.DefaultRSVersion, "ResourceSync schema `version`: "+strings.Join(validator.RSVersions(), ", "))
	fs.Func("schema", "load an additional XML Schema `file` for foreign namespaces (repeatable)", func(s string) error {
		c.schemas = append(c.schemas, s)
		return nil
	})
	fs.IntVar(&c.maxPerRule, "max-per-rule", 1000, "show at most `n` findings per rule and document; 0 shows all")
	fs.BoolVar(&c.noColor, "no-color", false, "never colour the text report")
	fs.StringVar(&c.docBase, "doc-base", report.DefaultDocBase, "link each rule to `URL` followed by docs/rules.md#ID (a copy of the rule catalogue you host)")
}

// reportOptions returns how the report is written.
func (c *reportConfig) reportOptions(e *env) report.Options {
	return report.Options{
		Color:   useColor(c.format, c.output, c.noColor, e.getenv("NO_COLOR"), isTerminal(e.stdout)),
		Rules:   catalogue(),
		DocBase: c.docBase,
	}
}

// problem says what is wrong with the shared flags' values, or returns "".
func (c *reportConfig) problem() string {
	switch {
	case !slices.Contains(report.Formats(), c.format):
		return fmt.Sprintf("unknown format %q (want %s)", c.format, strings.Join(report.Formats(), ", "))
	case !slices.Contains(validator.RSVersions(), c.rsVersion):
		return fmt.Sprintf("unknown ResourceSync version %q (want %s)", c.rsVersion, strings.Join(validator.RSVersions(), ", "))
	case c.maxPerRule < 0:
		return "--max-per-rule must not be negative"
	}
	return ""
}

// validatorOptions builds the options documents are validated with from
// the shared flags. It reports problems itself and
// returns nil with the exit status then.
func (c *reportConfig) validatorOptions(e *env, cmd string) (*validator.Options, int) {
	opts := &validator.Options{RSVersion: c.rsVersion, MaxFindingsPerRule: c.maxPerRule}
	if c.maxPerRule == 0 {
		opts.MaxFindingsPerRule = -1 // no cap
	}
	for _, path := range c.schemas {
		data, err := os.ReadFile(path)
		if err != nil {
			e.errorf(cmd, "%v", err)
			return nil, exitTrouble
		}
		opts.ExtraSchemas = append(opts.ExtraSchemas, validator.SchemaFile{Location: path, Data: data})
	}
	// Compile once here: a broken --schema is a usage problem, said once,
	// not a failure of every document.
	if _, err := validator.Schema(opts.RSVersion, opts.ExtraSchemas); err != nil {
		e.errorf(cmd, "%v", err)
		return nil, exitTrouble
	}
	return opts, exitOK
}
