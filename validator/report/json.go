package report

import (
	"encoding/json"
	"io"
)

// WriteJSON writes r as indented JSON:
//
//	{"tool":"rscheck","version":"…","documents":[{"source":"…","kind":"changelist",
//	  "findings":[{"rule":"RS404","severity":"error","message":"…","line":5,"column":3,
//	  "path":"…","spec":"12.1"}],…}],"summary":{"errors":1,"warnings":0,"infos":0,"documents":1}}
//
// Field order is that of the Go types, so the output is stable. Excerpts
// are not included.
func WriteJSON(w io.Writer, r *Result, _ Options) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	// Messages quote XML ("<rs:md>"): keep them readable. JSON is not HTML.
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}
