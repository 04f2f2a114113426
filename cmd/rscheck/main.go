// Command rscheck checks ResourceSync (ANSI/NISO Z39.99-2017) documents
// for conformance: it validates files, URLs or standard input, explores a
// whole Source, or monitors its notification channels, and writes a
// report as text, JSON, HTML, JUnit XML or SARIF.
//
// Usage:
//
//	rscheck validate [flags] FILE|URL|- ...
//	rscheck explore [flags] URL
//	rscheck monitor [flags] URL --listen ADDR --public-url URL
//	rscheck rules [--format text|json|md]
//	rscheck explain ID
//	rscheck version
//
// Run "rscheck help" for details. The exit status is 0 when no document
// has an error finding, 1 when one has, and 2 for usage and I/O problems.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
