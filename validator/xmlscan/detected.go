package xmlscan

// Encoding reports the character encoding the input is read in: "UTF-8",
// "UTF-16LE", "UTF-16BE", "ISO-8859-1" or "US-ASCII". It reflects the byte
// order mark and the XML declaration, so a UTF-16 document without an
// encoding declaration reports "UTF-16LE" or "UTF-16BE". Valid once Next
// has been called.
func (s *Scanner) Encoding() string {
	switch {
	case s.enc == encUTF16LE:
		return "UTF-16LE"
	case s.enc == encUTF16BE:
		return "UTF-16BE"
	case s.enc == encLatin1:
		return "ISO-8859-1"
	case s.ascii:
		return "US-ASCII"
	}
	return "UTF-8"
}
