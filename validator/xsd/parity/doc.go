// Package parity holds the tests that keep rscheck's XML Schema support
// honest: libxml2, with the official ResourceSync and Sitemaps schemas, is
// the judge of what is schema-valid.
//
// The package has no code of its own. Its tests need libxml2 (through cgo
// and github.com/terminalstatic/go-xsd-validate) and the official schemas in
// ../shared/reference/schemas next to the repository, so they are behind the
// libxml2 build tag:
//
//	go test -tags libxml2 ./validator/xsd/parity
//	go test -tags libxml2 -run '^$' -fuzz FuzzEngineVsLibxml2 -fuzztime 10m ./validator/xsd/parity
//
// TestOfficialVsOurSchemas proves that the schemas in the schemas package,
// which are rscheck's own, give the same verdicts and the same errors as the
// official ones, with libxml2 as the validator in both cases.
// TestEngineVsLibxml2 then holds the pure-Go engine in validator/xsd, with
// rscheck's schemas, to libxml2's verdicts with the official ones (the same
// verdict, the first error on the same line), and FuzzEngineVsLibxml2
// searches for documents on which they disagree. TestOracleMatchesXmllint
// checks the oracle itself against the xmllint command.
//
// The well-formedness differences that validator/xmlscan documents as
// intended count as agreement but are listed in the test output: chiefly,
// our tokenizer rejects documents that are not namespace-well-formed, which
// libxml2 only reports and then validates, it never expands entities
// declared in a DOCTYPE, and it reads fewer encodings. Past line 65534, libxml2
// as go-xsd-validate runs it reports line 65535 for every node; the engine
// may report the real line.
//
// All three run on one corpus, generated deterministically at test time:
// the examples of the ResourceSync 1.1 and Notification specifications, the
// libxml2 experiments kept with the official schemas, and a few thousand
// systematic mutations of them (datatype edge values, reordered, dropped,
// duplicated and foreign elements and attributes, changed namespaces, text
// where none belongs, prolog and line-ending variants). Every document has
// a stable name, such as "ex14/url-md-length=-1", that says where it comes
// from. Documents on which a disagreement was ever found are kept in
// testdata/regress and run by every test. A document that disagrees is
// written to testdata/failures (not committed) for inspection.
//
// Only TestCorpus, which checks the generator itself, runs without the tag.
package parity
