package validator

// Kind is the kind of a document, detected from its root element and the
// capability attribute of its document-level <rs:md>.
type Kind string

// The kinds of document.
const (
	// Unknown is a document that is not a Sitemap: not XML, or another root.
	Unknown Kind = "unknown"
	// UnknownCapability is a ResourceSync document whose capability value
	// is not defined by any ResourceSync specification.
	UnknownCapability Kind = "unknown-capability"
	// Sitemap is a plain Sitemap (<urlset> without ResourceSync metadata).
	Sitemap Kind = "sitemap"
	// SitemapIndex is a plain Sitemap index (<sitemapindex> without ResourceSync metadata).
	SitemapIndex Kind = "sitemapindex"

	Description           Kind = "description"
	DescriptionIndex      Kind = "description-index"
	CapabilityList        Kind = "capabilitylist"
	ResourceList          Kind = "resourcelist"
	ResourceListIndex     Kind = "resourcelist-index"
	ResourceDump          Kind = "resourcedump"
	ResourceDumpIndex     Kind = "resourcedump-index"
	ResourceDumpManifest  Kind = "resourcedump-manifest"
	ChangeList            Kind = "changelist"
	ChangeListIndex       Kind = "changelist-index"
	ChangeDump            Kind = "changedump"
	ChangeDumpIndex       Kind = "changedump-index"
	ChangeDumpManifest    Kind = "changedump-manifest"
	ChangeNotification    Kind = "change-notification"
	FrameworkNotification Kind = "framework-notification"

	// The archive capabilities (ResourceSync Archives) are recognised as
	// known; rscheck checks them as Sitemaps with ResourceSync metadata.
	ResourceListArchive      Kind = "resourcelist-archive"
	ResourceListArchiveIndex Kind = "resourcelist-archive-index"
	ResourceDumpArchive      Kind = "resourcedump-archive"
	ResourceDumpArchiveIndex Kind = "resourcedump-archive-index"
	ChangeListArchive        Kind = "changelist-archive"
	ChangeListArchiveIndex   Kind = "changelist-archive-index"
	ChangeDumpArchive        Kind = "changedump-archive"
	ChangeDumpArchiveIndex   Kind = "changedump-archive-index"
)

// Req is the requirement level of an attribute (Appendix A, Table 4).
type Req uint8

// Requirement levels.
const (
	Forbidden Req = iota // "X" in Table 4: not used
	Undefined            // not covered by Table 4: the attribute has no defined meaning there
	Optional
	Recommended
	Mandatory
)

// Capability describes one value of the capability attribute.
type Capability struct {
	Value   string
	Name    string // as the specification writes it: "Change List"
	List    Kind   // kind of a <urlset> document with this capability
	Index   Kind   // kind of a <sitemapindex> document, "" when an index is not allowed
	Spec    Spec   // where the document is defined
	IdxSpec Spec   // where its index is defined
	// Appendix A, Table 4: at and from on the document's rs:md and on the
	// entries' rs:md, for the list (urlset) form and the index form.
	// completed and until follow at and from: they may be used wherever
	// the corresponding attribute is not forbidden.
	List4, Index4 TimeAttrs
	// Entries says what a <url> of the document describes (for messages).
	Entries string
}

// TimeAttrs is one row of Appendix A, Table 4.
type TimeAttrs struct{ TopAt, TopFrom, ChildAt, ChildFrom Req }

var (
	snapshotDoc = TimeAttrs{Mandatory, Forbidden, Forbidden, Forbidden}
	changeDoc   = TimeAttrs{Forbidden, Mandatory, Forbidden, Forbidden}
	noTimes     = TimeAttrs{Undefined, Undefined, Undefined, Undefined}
	anyTimes    = TimeAttrs{Optional, Optional, Optional, Optional}
)

// Capabilities lists every capability value defined by the ResourceSync
// specifications, keyed by value.
var Capabilities = map[string]*Capability{
	// §8: "If a Source needs to or chooses to publish multiple Source
	// Descriptions, it must group them by means of a Source Description
	// Index."
	"description": {Name: "Source Description", List: Description, Index: DescriptionIndex,
		Spec: specSourceDesc, IdxSpec: specSourceDesc,
		List4: noTimes, Index4: noTimes, Entries: "Capability List"},
	"capabilitylist": {Name: "Capability List", List: CapabilityList, Spec: specCapList,
		List4: noTimes, Entries: "capability document"},
	"resourcelist": {Name: "Resource List", List: ResourceList, Index: ResourceListIndex,
		Spec: specResList, IdxSpec: specResListIndex,
		List4:   snapshotDoc,
		Index4:  TimeAttrs{Mandatory, Forbidden, Optional, Forbidden},
		Entries: "resource"},
	"resourcedump": {Name: "Resource Dump", List: ResourceDump, Index: ResourceDumpIndex,
		Spec: specResDump, IdxSpec: specResDumpIndex,
		List4:   TimeAttrs{Mandatory, Forbidden, Optional, Forbidden},
		Index4:  TimeAttrs{Mandatory, Forbidden, Optional, Forbidden},
		Entries: "package"},
	"resourcedump-manifest": {Name: "Resource Dump Manifest", List: ResourceDumpManifest,
		Spec: specResDumpMan, List4: snapshotDoc, Entries: "bitstream"},
	"changelist": {Name: "Change List", List: ChangeList, Index: ChangeListIndex,
		Spec: specChangeList, IdxSpec: specChangeIndex,
		List4:   changeDoc,
		Index4:  TimeAttrs{Forbidden, Mandatory, Forbidden, Recommended},
		Entries: "change"},
	"changedump": {Name: "Change Dump", List: ChangeDump, Index: ChangeDumpIndex,
		Spec: specChangeDump, IdxSpec: specChDumpIndex,
		List4:   TimeAttrs{Forbidden, Mandatory, Forbidden, Recommended},
		Index4:  TimeAttrs{Forbidden, Mandatory, Forbidden, Recommended},
		Entries: "package"},
	"changedump-manifest": {Name: "Change Dump Manifest", List: ChangeDumpManifest,
		Spec: specChDumpMan, List4: changeDoc, Entries: "change"},
	"change-notification": {Name: "Change Notification", List: ChangeNotification,
		Spec: specCN, List4: changeDoc, Entries: "change"},
	"framework-notification": {Name: "Framework Notification", List: FrameworkNotification,
		Spec: specFN, List4: TimeAttrs{Forbidden, Optional, Forbidden, Forbidden}, Entries: "framework change"},
	"resourcelist-archive": {Name: "Resource List Archive", List: ResourceListArchive, Index: ResourceListArchiveIndex,
		Spec: specStructure, IdxSpec: specStructure, List4: anyTimes, Index4: anyTimes, Entries: "Resource List"},
	"resourcedump-archive": {Name: "Resource Dump Archive", List: ResourceDumpArchive, Index: ResourceDumpArchiveIndex,
		Spec: specStructure, IdxSpec: specStructure, List4: anyTimes, Index4: anyTimes, Entries: "Resource Dump"},
	"changelist-archive": {Name: "Change List Archive", List: ChangeListArchive, Index: ChangeListArchiveIndex,
		Spec: specStructure, IdxSpec: specStructure, List4: anyTimes, Index4: anyTimes, Entries: "Change List"},
	"changedump-archive": {Name: "Change Dump Archive", List: ChangeDumpArchive, Index: ChangeDumpArchiveIndex,
		Spec: specStructure, IdxSpec: specStructure, List4: anyTimes, Index4: anyTimes, Entries: "Change Dump"},
}

func init() {
	for v, c := range Capabilities {
		c.Value = v
	}
}

// isArchive reports whether c is one of the archive capabilities, whose
// documents are defined by the Archives specification rather than the core.
func (c *Capability) isArchive() bool {
	switch c.List {
	case ResourceListArchive, ResourceDumpArchive, ChangeListArchive, ChangeDumpArchive:
		return true
	}
	return false
}

// IsIndex reports whether k is the kind of a <sitemapindex> document.
func (k Kind) IsIndex() bool {
	if k == SitemapIndex {
		return true
	}
	for _, c := range Capabilities {
		if c.Index == k && k != "" {
			return true
		}
	}
	return false
}

// Capability returns the capability value of a ResourceSync kind and
// whether there is one.
func (k Kind) Capability() (string, bool) {
	for v, c := range Capabilities {
		if c.List == k || c.Index == k {
			return v, true
		}
	}
	return "", false
}

// String returns the kind's name.
func (k Kind) String() string { return string(k) }

// capabilityListEntries are the capabilities a Capability List may
// advertise (§9, CN §5, FN §5, and the Archives specification).
var capabilityListEntries = setOf("resourcelist", "resourcedump", "changelist", "changedump",
	"change-notification", "framework-notification",
	"resourcelist-archive", "resourcedump-archive", "changelist-archive", "changedump-archive")

// frameworkNotificationEntries are the capabilities a framework
// notification may be about (FN §3), with the change types Table 2 lists.
var frameworkNotificationEntries = map[string]map[string]bool{
	"resourcelist":         setOf("created", "updated"),
	"resourcedump":         setOf("created"),
	"changelist":           setOf("created", "updated"),
	"changedump":           setOf("created", "updated"),
	"capabilitylist":       setOf("created", "updated", "deleted"),
	"description":          setOf("created", "updated", "deleted"),
	"resourcelist-archive": setOf("created", "updated", "deleted"),
	"resourcedump-archive": setOf("created", "updated", "deleted"),
	"changelist-archive":   setOf("created", "updated", "deleted"),
	"changedump-archive":   setOf("created", "updated", "deleted"),
}
