// Package schemas embeds the XML Schema files that rscheck validates
// ResourceSync documents against.
//
// The files are rscheck's own, written from the Sitemaps protocol and the
// ResourceSync specification (ANSI/NISO Z39.99-2017, Section 7 and Table 3);
// they are not copies of the schemas published by sitemaps.org and the Open
// Archives Initiative. They are meant to accept and reject exactly what the
// official schemas accept and reject, and they differ from them only in
// layout and documentation:
//
//   - sitemap.xsd declares both Sitemaps roots, <urlset> and
//     <sitemapindex>, in one schema for the namespace
//     http://www.sitemaps.org/schemas/sitemap/0.9, with the content models,
//     datatypes, facets and global type names of the official sitemap.xsd
//     and siteindex.xsd together. One schema per namespace means no wrapper
//     schema is needed to validate either kind of document.
//   - resourcesync-1.1.xsd, resourcesync-1.0.xsd and resourcesync-0.9.1.xsd
//     declare rs:md and rs:ln for the namespace
//     http://www.openarchives.org/rs/terms/ as the official schemas of those
//     versions do (1.1 and 1.0 as revised on 2023-07-19).
//
// Equivalence is proven, not assumed: the parity tests in
// validator/xsd/parity (go test -tags libxml2 ./validator/xsd/parity) run a
// generated corpus of several thousand documents (the specification's
// examples and systematic mutations of them) through libxml2 twice per
// version, once with the official schemas and once with these, and require
// the very same errors, lines and messages, for every document. The same
// harness then holds rscheck's pure-Go engine (validator/xsd) to libxml2's
// verdicts.
//
// Where the official schemas are lax (no attribute is required, a negative
// rs:md length passes, a relation type is almost any string), these schemas
// are equally lax on purpose: the validator's ResourceSync rules check what
// the schema does not, and a schema verdict always means what libxml2 with
// the official schemas would say.
package schemas

import (
	"embed"
	"fmt"
	"strings"
)

// FS holds the schema files, at the root of the file system: sitemap.xsd
// and resourcesync-<version>.xsd for every supported version. Pass it to an
// XSD compiler together with the locations returned by [Roots].
//
//go:embed *.xsd
var FS embed.FS

// Namespaces of the documents the schemas describe.
const (
	// SitemapNamespace is the namespace of <urlset>, <sitemapindex> and
	// their children, declared by sitemap.xsd.
	SitemapNamespace = "http://www.sitemaps.org/schemas/sitemap/0.9"
	// ResourceSyncNamespace is the namespace of rs:md and rs:ln, declared by
	// the resourcesync-*.xsd files. The trailing slash is part of it.
	ResourceSyncNamespace = "http://www.openarchives.org/rs/terms/"
)

// DefaultVersion is the ResourceSync schema version used when none is
// chosen: 1.1, the current version of the specification.
const DefaultVersion = "1.1"

// SitemapSchema is the location in [FS] of the schema for the Sitemaps
// namespace, shared by every ResourceSync version.
const SitemapSchema = "sitemap.xsd"

// versions lists the supported versions, newest first. The location of a
// version's ResourceSync schema is derived from its name.
var versions = []string{"1.1", "1.0", "0.9.1"}

// Versions returns the supported ResourceSync schema versions, newest
// first:
//
//   - "1.1": ResourceSync 1.1 (2017) as revised on 2023-07-19, with
//     rs:md/@datetime and rs:ln/@profile;
//   - "1.0": the 1.0 schema as revised on 2023-07-19, with rs:ln/@profile
//     but no rs:md/@datetime;
//   - "0.9.1": the schema of 2013-08-15 (ResourceSync 1.0 as published until
//     2023), with neither, which older tools still validate against.
//
// The caller may modify the returned slice.
func Versions() []string {
	return append([]string(nil), versions...)
}

// Roots returns the locations in [FS] of the schemas to compile together to
// validate documents of the given ResourceSync version: the Sitemaps schema
// and the ResourceSync schema of that version, for example
// ["sitemap.xsd", "resourcesync-1.1.xsd"] for "1.1". The empty string
// selects [DefaultVersion]. An unknown version is an error that lists the
// supported ones.
func Roots(version string) ([]string, error) {
	if version == "" {
		version = DefaultVersion
	}
	for _, v := range versions {
		if v == version {
			return []string{SitemapSchema, "resourcesync-" + v + ".xsd"}, nil
		}
	}
	return nil, fmt.Errorf("schemas: unknown ResourceSync schema version %q (supported: %s)",
		version, strings.Join(versions, ", "))
}
