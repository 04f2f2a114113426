package dump

import (
	"sort"

	"github.com/rscheck/rscheck/validator"
)

// Sections of the core specification the package rules cite.
var (
	specResDump    = validator.Spec{Doc: validator.SpecCore, Section: "11.1", Anchor: "ResourceDump"}
	specResDumpMan = validator.Spec{Doc: validator.SpecCore, Section: "11.2", Anchor: "ResourceDumpManifest"}
	specChangeDump = validator.Spec{Doc: validator.SpecCore, Section: "13.1", Anchor: "ChangeDump"}
	specFormats    = validator.Spec{Doc: validator.SpecCore, Section: "7", Anchor: "DocumentFormats"}
)

// The rules of dump packages. Their Run is nil: Check (and, for the rules
// about a dump's entry, the explorer) reports their findings.
var (
	RuleManifestMissing = &validator.Rule{
		ID: "RD101", Name: "manifest-missing", Severity: validator.Error, Spec: specResDumpMan,
		Doc: "A dump package contains its Manifest as manifest.xml at the top level of the ZIP.",
	}
	RuleManifestCapability = &validator.Rule{
		ID: "RD102", Name: "manifest-capability", Severity: validator.Error, Spec: specResDumpMan,
		Doc: "A Resource Dump's packages hold a resourcedump-manifest, a Change Dump's a changedump-manifest.",
	}
	RulePathMissing = &validator.Rule{
		ID: "RD103", Name: "manifest-path-missing", Severity: validator.Error, Spec: specResDumpMan,
		Doc: "Every path in the Manifest names a file of the package.",
	}
	RuleBitstreamLength = &validator.Rule{
		ID: "RD104", Name: "bitstream-length", Severity: validator.Error, Spec: specFormats,
		Doc: "A bitstream's length in the Manifest equals the size of the file in the package.",
	}
	RuleBitstreamHash = &validator.Rule{
		ID: "RD105", Name: "bitstream-hash", Severity: validator.Error, Spec: specFormats,
		Doc: "A bitstream's hash in the Manifest equals the digest of the file in the package.",
	}
	RuleUnlistedFile = &validator.Rule{
		ID: "RD106", Name: "unlisted-file", Severity: validator.Warning, Spec: specResDumpMan,
		Doc: "Every file of the package other than manifest.xml is described by a Manifest entry.",
	}
	RuleContentsManifest = &validator.Rule{
		ID: "RD107", Name: "contents-manifest-differs", Severity: validator.Error, Spec: specChangeDump,
		Doc: "The Manifest a dump entry links to with rel=\"contents\" matches the manifest.xml in the package.",
	}
	RulePackageLength = &validator.Rule{
		ID: "RD108", Name: "package-length", Severity: validator.Error, Spec: specResDump,
		Doc: "A dump entry's length equals the size of the package it points to.",
	}
	RulePackageType = &validator.Rule{
		ID: "RD109", Name: "package-type", Severity: validator.Error, Spec: specResDump,
		Doc: "A dump entry's type is the media type of the package (application/zip for a ZIP).",
	}
	RuleUnsafePath = &validator.Rule{
		ID: "RD110", Name: "zip-unsafe-path", Severity: validator.Error, Spec: specResDumpMan,
		Doc: "File names in a package are relative paths inside it: no \"..\" segment, no leading slash or drive, no backslash.",
	}
	RuleDuplicateName = &validator.Rule{
		ID: "RD111", Name: "zip-duplicate-name", Severity: validator.Error, Spec: specResDumpMan,
		Doc: "A package holds each file name once; a duplicate makes the bitstream at a path ambiguous.",
	}
	RuleZipLimits = &validator.Rule{
		ID: "RD112", Name: "zip-limits", Severity: validator.Error, Spec: specResDumpMan,
		Doc: "A package stays within the limits set for reading it (files, decompressed bytes) and its files within their declared sizes.",
	}
	RuleZipCorrupt = &validator.Rule{
		ID: "RD113", Name: "zip-corrupt", Severity: validator.Error, Spec: specResDump,
		Doc: "A package is a readable ZIP file: a valid central directory, files that decompress and match their CRC.",
	}
	RulePackageHash = &validator.Rule{
		ID: "RD114", Name: "package-hash", Severity: validator.Error, Spec: specResDump,
		Doc: "A dump entry's hash equals the digest of the package it points to.",
	}
)

// Rules returns the catalogue of package rules, in ID order.
func Rules() []*validator.Rule {
	rs := []*validator.Rule{
		RuleManifestMissing, RuleManifestCapability, RulePathMissing, RuleBitstreamLength,
		RuleBitstreamHash, RuleUnlistedFile, RuleContentsManifest, RulePackageLength,
		RulePackageType, RuleUnsafePath, RuleDuplicateName, RuleZipLimits, RuleZipCorrupt,
		RulePackageHash,
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].ID < rs[j].ID })
	return rs
}
