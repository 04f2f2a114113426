// Package report renders the results of rscheck: one model, [Result], and
// five views of it (text, JSON, HTML, JUnit XML and SARIF).
//
// The validator reports findings; this package only formats them. Nothing
// here decides what is wrong or which exit status a run has.
//
// Every string that comes from a validated document (sources, URLs,
// messages quoting values, paths, excerpts) is untrusted: the HTML view
// escapes it and links only http and https URLs, the XML views escape it,
// and the text view replaces control characters so that a document cannot
// drive the terminal.
package report
