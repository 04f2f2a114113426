package explorer

import (
	"sort"

	"github.com/rscheck/rscheck/explorer/dump"
	"github.com/rscheck/rscheck/validator"
)

func core(section, anchor string) validator.Spec {
	return validator.Spec{Doc: validator.SpecCore, Section: section, Anchor: anchor}
}

// Sections of the specifications the explorer's rules cite.
var (
	specStructure  = core("6.1", "Structure")
	specNavigation = core("6.2", "Navigation")
	specDiscovery  = core("6.3", "Discovery")
	specWellKnown  = core("6.3.2", "wellknown")
	specDiscoLinks = core("6.3.3", "disco_links")
	specRobots     = core("6.3.4", "robots")
	specFormats    = core("7", "DocumentFormats")
	specCapList    = core("9", "CapabilityList")
	specResList    = core("10.1", "ResourceList")
	specResListIdx = core("10.2", "ResourceListIndex")
	specChangeIdx  = core("12.2", "ChangeListIndex")
	specTimeAttrs  = core("A", "TimeAttributeReqs")
	specCNTopic    = validator.Spec{Doc: validator.SpecChangeNotification, Section: "4.1", Anchor: "Source2Hub"}
)

// Cross-document rules (RX1xx): what no single document shows.
var (
	RuleUpParent = &validator.Rule{
		ID: "RX101", Name: "up-link-parent", Severity: validator.Error, Spec: specNavigation,
		Doc: "A document's rel=\"up\" link points to its parent: a Capability List to the Source Description, a capability document to the Capability List that lists it.",
	}
	RuleIndexParent = &validator.Rule{
		ID: "RX102", Name: "index-link-parent", Severity: validator.Error, Spec: specNavigation,
		Doc: "A document's rel=\"index\" link points to the index that lists it.",
	}
	RuleIndexLinkMissing = &validator.Rule{
		ID: "RX103", Name: "index-link-missing", Severity: validator.Warning, Spec: specNavigation,
		Doc: "A document listed by an index should link to it with rel=\"index\".",
	}
	RuleCapabilityMismatch = &validator.Rule{
		ID: "RX104", Name: "capability-mismatch", Severity: validator.Error, Spec: specStructure,
		Doc: "The capability a Source Description or Capability List announces for an entry is the capability the document at its <loc> declares.",
	}
	RuleIndexPartCapability = &validator.Rule{
		ID: "RX105", Name: "index-part-capability", Severity: validator.Error, Spec: specStructure,
		Doc: "The documents an index lists have the index's capability.",
	}
	RuleIndexForm = &validator.Rule{
		ID: "RX106", Name: "index-form", Severity: validator.Error, Spec: specStructure,
		Doc: "An index is a <sitemapindex> and its parts are <urlset> documents: a list of lists served as <urlset>, or an index under an index, is not.",
	}
	RuleIndexPartTimes = &validator.Rule{
		ID: "RX107", Name: "index-part-times", Severity: validator.Error, Spec: specTimeAttrs,
		Doc: "An index entry's at, completed, from and until equal those of the part it points to.",
	}
	RuleChangeIndexClosed = &validator.Rule{
		ID: "RX108", Name: "change-index-closed", Severity: validator.Error, Spec: specChangeIdx,
		Doc: "A Change List Index gives until for each closed Change List and none for the open one.",
	}
	RuleChangeIndexOrder = &validator.Rule{
		ID: "RX109", Name: "change-index-parts-order", Severity: validator.Error, Spec: specChangeIdx,
		Doc: "The Change Lists of an index, by their own from and until, are in forward chronological order and only the last is open.",
	}
	RuleChangeIndexGap = &validator.Rule{
		ID: "RX110", Name: "change-index-parts-gap", Severity: validator.Warning, Spec: specChangeIdx,
		Doc: "Each Change List of an index starts where the previous one ends: no gap, no overlap.",
	}
	RuleDuplicateAcrossParts = &validator.Rule{
		ID: "RX111", Name: "duplicate-across-parts", Severity: validator.Warning, Spec: specResListIdx,
		Doc: "A resource appears once in the union of a Resource List Index's lists.",
	}
	RuleListDumpAgree = &validator.Rule{
		ID: "RX112", Name: "resourcelist-dump-agree", Severity: validator.Warning, Spec: specCapList,
		Doc: "A Resource Dump and a Resource List of the same Capability List cover the same resources with the same hash and length.",
	}
	RuleCycle = &validator.Rule{
		ID: "RX113", Name: "hierarchy-cycle", Severity: validator.Error, Spec: specStructure,
		Doc: "The documents form a tree: no document lists one of its ancestors.",
	}
	RuleSeveralParents = &validator.Rule{
		ID: "RX114", Name: "several-parents", Severity: validator.Warning, Spec: specNavigation,
		Doc: "A document has one parent: it is listed by one Source Description, Capability List or index.",
	}
	RuleDiscoveryDisagree = &validator.Rule{
		ID: "RX115", Name: "discovery-disagree", Severity: validator.Warning, Spec: specDiscovery,
		Doc: "The discovery methods (well-known URI, links, robots.txt) lead to the same Source Description.",
	}
	RuleWellKnown = &validator.Rule{
		ID: "RX116", Name: "well-known-description", Severity: validator.Warning, Spec: specWellKnown,
		Doc: "A Source should publish its Source Description at /.well-known/resourcesync.",
	}
	RuleDiscoveryTarget = &validator.Rule{
		ID: "RX117", Name: "discovery-link-target", Severity: validator.Error, Spec: specDiscoLinks,
		Doc: "A rel=\"resourcesync\" link, in HTML or in an HTTP Link header, points to a Capability List.",
	}
	RuleUpReachesDescription = &validator.Rule{
		ID: "RX118", Name: "up-reaches-description", Severity: validator.Error, Spec: specNavigation,
		Doc: "Following rel=\"up\" links from any document leads to the Source Description.",
	}
	RuleRobotsSitemap = &validator.Rule{
		ID: "RX119", Name: "robots-sitemap", Severity: validator.Info, Spec: specRobots,
		Doc: "A robots.txt Sitemap directive that is not a ResourceSync document plays no part in discovery.",
	}
	RuleTopicResponse = &validator.Rule{
		ID: "RX120", Name: "topic-response", Severity: validator.Error, Spec: specCNTopic,
		Doc: "A notification channel's topic URI answers HEAD and GET with 200 and Content-Type application/xml (or Content-Length 0).",
	}
	RuleNoDescription = &validator.Rule{
		ID: "RX122", Name: "no-description", Severity: validator.Error, Spec: specWellKnown,
		Doc: "A Source publishes a Source Description, which one of the discovery methods finds.",
	}
	RuleTopicLinks = &validator.Rule{
		ID: "RX121", Name: "topic-links", Severity: validator.Error, Spec: specCNTopic,
		Doc: "A topic URI's response has Link headers with rel=\"self\" (the topic) and rel=\"hub\" (the hub the Capability List gives).",
	}
)

// Fetching rules (RF1xx): documents that cannot be had as they should.
var (
	RuleHTTPStatus = &validator.Rule{
		ID: "RF101", Name: "http-status", Severity: validator.Error, Spec: specNavigation,
		Doc: "A document or package a link points to answers 200 OK.",
	}
	RuleContentType = &validator.Rule{
		ID: "RF102", Name: "content-type", Severity: validator.Warning, Spec: specFormats,
		Doc: "ResourceSync documents are served as XML (application/xml or text/xml, or gzip for .gz files).",
	}
	RuleRedirect = &validator.Rule{
		ID: "RF103", Name: "redirect", Severity: validator.Warning, Spec: specNavigation,
		Doc: "Links point to the document itself, not to a URL that redirects to it.",
	}
	RuleUnreachable = &validator.Rule{
		ID: "RF104", Name: "unreachable", Severity: validator.Error, Spec: specNavigation,
		Doc: "A document or package a link points to can be fetched: no network error, timeout, redirect loop or redirect to another scheme.",
	}
	RuleTooLarge = &validator.Rule{
		ID: "RF105", Name: "too-large", Severity: validator.Error, Spec: specFormats,
		Doc: "A package is within Options.MaxPackageBytes, and any response within the explorer's size cap (a document over Options.MaxDocumentBytes is the validator's XML002).",
	}
	RuleNotExplored = &validator.Rule{
		ID: "RF106", Name: "not-explored", Severity: validator.Warning, Spec: specStructure,
		Doc: "The crawl stopped at a limit (documents, bytes, depth, time) before following this link.",
	}
)

// Content audit rules (RA1xx): resources compared with their metadata.
var (
	RuleResourceStatus = &validator.Rule{
		ID: "RA101", Name: "resource-status", Severity: validator.Error, Spec: specResList,
		Doc: "A listed resource answers 200 OK; a resource a Change List says was deleted answers 404 or 410.",
	}
	RuleResourceLength = &validator.Rule{
		ID: "RA102", Name: "resource-length", Severity: validator.Error, Spec: specFormats,
		Doc: "A resource's length equals the length of the representation it returns (and its Content-Length).",
	}
	RuleResourceHash = &validator.Rule{
		ID: "RA103", Name: "resource-hash", Severity: validator.Error, Spec: specFormats,
		Doc: "A resource's hash equals the digest of the representation it returns.",
	}
	RuleResourceType = &validator.Rule{
		ID: "RA104", Name: "resource-type", Severity: validator.Warning, Spec: specFormats,
		Doc: "A resource's type is the media type of its Content-Type (parameters and case aside).",
	}
	RuleResourceLastmod = &validator.Rule{
		ID: "RA105", Name: "resource-lastmod", Severity: validator.Warning, Spec: specFormats,
		Doc: "A resource's <lastmod> equals its Last-Modified header.",
	}
	RuleLastModifiedFormat = &validator.Rule{
		ID: "RA106", Name: "last-modified-format", Severity: validator.Warning, Spec: specFormats,
		Doc: "A Last-Modified header is an HTTP-date (RFC 9110), such as \"Tue, 15 Nov 1994 08:12:31 GMT\", not a W3C Datetime.",
	}
)

var registry = func() []*validator.Rule {
	rs := []*validator.Rule{
		RuleUpParent, RuleIndexParent, RuleIndexLinkMissing, RuleCapabilityMismatch,
		RuleIndexPartCapability, RuleIndexForm, RuleIndexPartTimes, RuleChangeIndexClosed,
		RuleChangeIndexOrder, RuleChangeIndexGap, RuleDuplicateAcrossParts, RuleListDumpAgree,
		RuleCycle, RuleSeveralParents, RuleDiscoveryDisagree, RuleWellKnown, RuleDiscoveryTarget,
		RuleUpReachesDescription, RuleRobotsSitemap, RuleTopicResponse, RuleTopicLinks, RuleNoDescription,
		RuleHTTPStatus, RuleContentType, RuleRedirect, RuleUnreachable, RuleTooLarge,
		RuleNotExplored,
		RuleResourceStatus, RuleResourceLength, RuleResourceHash, RuleResourceType,
		RuleResourceLastmod, RuleLastModifiedFormat,
	}
	rs = append(rs, dump.Rules()...)
	sort.Slice(rs, func(i, j int) bool { return rs[i].ID < rs[j].ID })
	return rs
}()

// Rules returns the catalogue of the explorer's rules, in ID order: the
// cross-document (RX), fetching (RF), dump package (RD) and content audit
// (RA) rules. Their Run is nil: the explorer reports their findings in the
// reports of the documents they concern. The slice is a copy; the rules
// are shared and must not be modified.
func Rules() []*validator.Rule { return append([]*validator.Rule(nil), registry...) }

// finding makes a finding of rule r.
func finding(r *validator.Rule, at pos, format string, args ...any) validator.Finding {
	return r.Finding(at.Line, at.Col, at.Path, format, args...)
}

// pos locates a finding in a document: 0 for the document as a whole.
type pos struct {
	Line, Col int
	Path      string
}

func elemPos(el *validator.Element) pos {
	if el == nil {
		return pos{}
	}
	return pos{el.Pos.Line, el.Pos.Col, el.Path()}
}

func attrPos(el *validator.Element, name string) pos {
	if el == nil {
		return pos{}
	}
	if a := el.Attr(name); a != nil {
		return pos{a.Pos.Line, a.Pos.Col, el.AttrPath(a)}
	}
	return elemPos(el)
}
