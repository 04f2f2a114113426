package xsd

import "sort"

// This file answers character-class questions the way libxml2 does, from
// the tables in unicode_tables.go (generated from libxml2 itself). Go's
// unicode package is newer (Unicode 15 against libxml2's 4.0.1) and lists
// the CJK, Hangul and private-use ranges that libxml2's tables lack, so
// using it would change verdicts.

// inTable reports whether r is in the inclusive ranges t (lo, hi pairs).
func inTable(t []uint32, r rune) bool {
	c := uint32(r)
	n := len(t) / 2
	i := sort.Search(n, func(i int) bool { return t[2*i+1] >= c })
	return i < n && t[2*i] <= c
}

// isXMLLetter is XML 1.0 (4th edition) Letter: BaseChar | Ideographic.
func isXMLLetter(r rune) bool {
	if r < 0x80 {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return inTable(xmlLetter, r)
}

func isXMLDigit(r rune) bool {
	if r < 0x80 {
		return '0' <= r && r <= '9'
	}
	return inTable(xmlDigit, r)
}

// isNameChar is libxml2's \c, the XML 1.0 (4th edition) NameChar.
func isNameChar(r rune) bool {
	if r < 0x80 {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' ||
			r == '.' || r == '-' || r == '_' || r == ':'
	}
	return isXMLLetter(r) || isXMLDigit(r) || inTable(xmlCombining, r) || inTable(xmlExtender, r)
}

// catRanges returns the ranges of a general category or category group
// ("L", "Lu", ...) in libxml2's tables, and whether the name is known.
// "Cn" is known but empty: libxml2 parses \p{Cn} and matches nothing.
func catRanges(name string) ([]uint32, bool) {
	if i := sort.SearchStrings(ucdCategoryNames[:], name); i < len(ucdCategoryNames) && ucdCategoryNames[i] == name {
		return ucdCategories[i], true
	}
	switch name {
	case "Cn":
		return nil, true
	case "L", "M", "N", "P", "Z", "S", "C":
		var out []uint32
		for i, sub := range ucdCategoryNames {
			if sub[:1] == name {
				out = append(out, ucdCategories[i]...)
			}
		}
		return normalizeRanges(out), true
	}
	return nil, false
}

// blockRanges returns the ranges of a block name as libxml2 knows it.
func blockRanges(name string) ([]uint32, bool) {
	i := sort.Search(len(ucdBlocks), func(i int) bool { return ucdBlocks[i].name >= name })
	if i < len(ucdBlocks) && ucdBlocks[i].name == name {
		return ucdBlocks[i].ranges, true
	}
	return nil, false
}

// normalizeRanges sorts lo, hi pairs and merges overlapping or adjacent
// ones.
func normalizeRanges(t []uint32) []uint32 {
	n := len(t) / 2
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return t[2*idx[a]] < t[2*idx[b]] })
	out := make([]uint32, 0, len(t))
	for _, i := range idx {
		lo, hi := t[2*i], t[2*i+1]
		if m := len(out); m > 0 && lo <= out[m-1]+1 {
			if hi > out[m-1] {
				out[m-1] = hi
			}
			continue
		}
		out = append(out, lo, hi)
	}
	return out
}
