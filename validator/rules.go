package validator

import "sort"

// registry is the catalogue of document rules, in ID order.
var registry = sortRules([]*Rule{
	ruleWellFormed, ruleNotXML, ruleDoctype, ruleUTF8,

	rulePlainSitemap, ruleRoot, ruleMissingMD, ruleRSNamespace, ruleOneDocMD,
	ruleCapabilityAttr, ruleCapabilityKnown, ruleCapabilitySpace, ruleIndexAllowed,
	ruleOneEntryMD, ruleEntryElement, ruleLinkAttrs, ruleCapListIndex,

	ruleMaxEntries, ruleMaxBytes, ruleLocURI, ruleLocLength, ruleLocSpace, ruleLocASCII, ruleSitemapLastmod,

	ruleDatetime, ruleDatetimeUTC, ruleHash, ruleHashAlg, ruleLength, ruleMediaType,
	ruleMediaTypeTop, rulePathSafe, ruleRel, ruleRelRegistered, ruleHref, ruleHrefAbs,
	ruleEncoding,

	ruleTopTimeRequired, ruleTopTimeForbidden, ruleChildTime, ruleChildFromRecommended,
	ruleTimeUndefined, ruleEntryMDRequired, ruleChangeRequired, ruleChangeMisplaced,
	rulePathRequired, rulePathMisplaced, ruleManifestType, ruleDumpTypeLength,
	ruleDumpSameFormat, ruleDumpZip, ruleSDEntryCapability, ruleDescribedByEntry,
	ruleDescribedByDoc, ruleLastmodTop, ruleSDEmpty, ruleUpLink, ruleOneUpLink,
	ruleCapListEntries, ruleCapListUnknown, ruleCapListUnique, ruleDuplicateLoc,
	ruleChangeDatetimeHint,

	ruleAtCompleted, ruleFromUntil, ruleDatetimeInPeriod, ruleChronological, ruleDumpOrder,
	ruleIndexOrder, ruleOpenLast, ruleContiguous, ruleLastmodAfterSnapshot, ruleClosedIndex,
	rulePartsWithinIndex,

	rulePatchType, rulePatchPlace, rulePatchPath, ruleAlternateType, ruleTimegateAttrs,
	ruleMementoModified, ruleDuplicateAttrs, ruleContentsPlace, ruleHubPlace, ruleEntryUp,
	ruleIndexLinkPlace, ruleOneVia,

	ruleCNUntil, ruleCNOrder, ruleFNCapability, ruleFNCapabilityValue, ruleFNChangeType,
	ruleChannelHub,
})

// Rules returns the catalogue of rules that apply to single documents:
// the XML, XSD, Sitemap, ResourceSync and notification payload rules, in
// ID order. The slice is a copy; the rules are shared and must not be
// modified.
func Rules() []*Rule {
	all := append(append([]*Rule(nil), registry...), xsdRules...)
	return sortRules(all)
}

// Lookup returns the document rule with the given ID, or nil.
func Lookup(id string) *Rule {
	for _, r := range registry {
		if r.ID == id {
			return r
		}
	}
	for _, r := range xsdRules {
		if r.ID == id {
			return r
		}
	}
	return nil
}

func sortRules(rs []*Rule) []*Rule {
	sort.Slice(rs, func(i, j int) bool { return rs[i].ID < rs[j].ID })
	return rs
}
