package validator

import (
	"time"

	"github.com/rscheck/rscheck/validator/xmlscan"
)

// timeOf returns the parsed value of a time attribute, if present and valid.
func (p *Pass) timeOf(el *Element, attr string) (time.Time, *xmlscan.Attr, bool) {
	a := el.Attr(attr)
	if a == nil {
		return time.Time{}, nil, false
	}
	d, err := p.datetime(a.Value)
	if err != nil {
		return time.Time{}, a, false
	}
	return d.Time, a, true
}

// isChangeOrdered reports whether entries of the kind must be in forward
// chronological order of their datetime (§12.1, §13.2, CN §3).
func isChangeOrdered(k Kind) bool {
	return k == ChangeList || k == ChangeDumpManifest || k == ChangeNotification
}

func fmtTime(t time.Time) string { return t.Format("2006-01-02T15:04:05.999999999Z07:00") }

// Time relations inside one document.
var (
	ruleAtCompleted = &Rule{
		ID: "RS401", Name: "at-before-completed", Severity: Error, Spec: specFormats,
		Doc: "completed is not earlier than at: a snapshot completes after it starts.",
		Run: func(p *Pass) {
			// Only elements with a completed attribute can break the rule.
			p.OnAttr(func(md *Element, _ *xmlscan.Attr) {
				at, _, ok1 := p.timeOf(md, "at")
				c, ca, ok2 := p.timeOf(md, "completed")
				if ok1 && ok2 && c.Before(at) {
					p.ReportAttrf(md, ca, "completed=%q is earlier than at=%q; the snapshot cannot complete before it starts", ca.Value, md.Value("at"))
				}
			}, "completed")
		},
	}
	ruleFromUntil = &Rule{
		ID: "RS402", Name: "from-before-until", Severity: Error, Spec: specFormats,
		Doc: "until is not earlier than from: the period covered has a positive length.",
		Run: func(p *Pass) {
			p.OnAttr(func(md *Element, _ *xmlscan.Attr) {
				f, _, ok1 := p.timeOf(md, "from")
				u, ua, ok2 := p.timeOf(md, "until")
				if ok1 && ok2 && u.Before(f) {
					p.ReportAttrf(md, ua, "until=%q is earlier than from=%q; the period covered would end before it starts", ua.Value, md.Value("from"))
				}
			}, "until")
		},
	}
	ruleDatetimeInPeriod = &Rule{
		ID: "RS403", Name: "datetime-in-period", Severity: Error, Spec: specFormats,
		Doc: "A change's datetime is equal to or after the document's from, and equal to or before its until.",
		Run: func(p *Pass) {
			d := p.Doc
			if !isChangeOrdered(d.Kind) || d.MD == nil {
				return
			}
			from, _, hasFrom := p.timeOf(d.MD, "from")
			until, _, hasUntil := p.timeOf(d.MD, "until")
			if !hasFrom && !hasUntil {
				return
			}
			p.OnEntry(func(e *Entry) {
				if e.MD == nil {
					return
				}
				t, a, ok := p.timeOf(e.MD, "datetime")
				switch {
				case !ok:
				case hasFrom && t.Before(from):
					p.ReportAttrf(e.MD, a, "datetime=%q is before the document's from=%q; every change it lists happened within the period it covers", a.Value, d.MD.Value("from"))
				case hasUntil && t.After(until):
					p.ReportAttrf(e.MD, a, "datetime=%q is after the document's until=%q; every change it lists happened within the period it covers", a.Value, d.MD.Value("until"))
				}
			})
		},
	}
	ruleChronological = &Rule{
		ID: "RS404", Name: "chronological-order", Severity: Error, Spec: specChangeList,
		Doc: "Change List and Change Dump Manifest entries are in forward chronological order of their datetime.",
		Run: func(p *Pass) {
			if k := p.Doc.Kind; k != ChangeList && k != ChangeDumpManifest {
				return
			}
			chronological(p, "the least recent change first")
		},
	}
	ruleDumpOrder = &Rule{
		ID: "RS405", Name: "changedump-order", Severity: Warning, Spec: specChangeDump,
		Doc: "Change Dump entries should be in forward chronological order: the least recently published package first.",
		Run: func(p *Pass) {
			if p.Doc.Kind != ChangeDump {
				return
			}
			periodOrder(p)
		},
	}
	ruleIndexOrder = &Rule{
		ID: "RS406", Name: "index-order", Severity: Error, Spec: specChangeIndex,
		Doc: "A Change List Index (and a Change Dump Index) enumerates its parts in forward chronological order.",
		Run: func(p *Pass) {
			if k := p.Doc.Kind; k != ChangeListIndex && k != ChangeDumpIndex {
				return
			}
			periodOrder(p)
		},
	}
	ruleOpenLast = &Rule{
		ID: "RS407", Name: "open-part-last", Severity: Error, Spec: specChangeIndex,
		Doc: "In a Change List Index or Change Dump Index only the last part may be open (no until).",
		Run: func(p *Pass) {
			d := p.Doc
			if d.Kind != ChangeListIndex && d.Kind != ChangeDumpIndex && d.Kind != ChangeDump {
				return
			}
			var open *Element // the latest open part, awaiting a successor
			var openN int
			p.OnEntry(func(e *Entry) {
				if open != nil {
					p.Reportf(open, "entry %d has no until, so it is open and still receiving changes, yet entry %d follows it; only the last part can be open: close it with until", openN, e.N)
					open = nil
				}
				if e.MD != nil && e.MD.Has("from") && !e.MD.Has("until") {
					open, openN = e.MD.Detach(), e.N
				}
			})
		},
	}
	ruleContiguous = &Rule{
		ID: "RS408", Name: "contiguous-periods", Severity: Warning, Spec: specChangeIndex,
		Doc: "Consecutive parts of a change index cover consecutive periods: each from equals the previous until.",
		Run: func(p *Pass) {
			d := p.Doc
			if d.Kind != ChangeListIndex && d.Kind != ChangeDumpIndex && d.Kind != ChangeDump {
				return
			}
			var prevUntil time.Time
			var prevN int
			var have bool
			p.OnEntry(func(e *Entry) {
				if e.MD == nil {
					have = false
					return
				}
				f, fa, okF := p.timeOf(e.MD, "from")
				if have && okF {
					switch {
					case f.After(prevUntil):
						p.ReportAttrf(e.MD, fa, "from=%q leaves a gap after entry %d, which ends at %s; changes in between would be reported nowhere", fa.Value, prevN, fmtTime(prevUntil))
					case f.Before(prevUntil):
						p.ReportAttrf(e.MD, fa, "from=%q overlaps entry %d, which ends at %s; consecutive parts should cover consecutive periods", fa.Value, prevN, fmtTime(prevUntil))
					}
				}
				prevUntil, _, have = p.timeOf(e.MD, "until")
				prevN = e.N
			})
		},
	}
	ruleLastmodAfterSnapshot = &Rule{
		ID: "RS409", Name: "lastmod-after-snapshot", Severity: Warning, Spec: specResList,
		Doc: "In a snapshot, a resource's <lastmod> should not be later than the snapshot's completion.",
		Run: func(p *Pass) {
			d := p.Doc
			if (d.Kind != ResourceList && d.Kind != ResourceDumpManifest) || d.MD == nil {
				return
			}
			end, a, ok := p.timeOf(d.MD, "completed")
			if !ok {
				if end, a, ok = p.timeOf(d.MD, "at"); !ok {
					return
				}
			}
			p.OnEntry(func(e *Entry) {
				if e.Lastmod == nil {
					return
				}
				if lm, err := p.datetime(e.Lastmod.Text); err == nil && lm.Time.After(end) {
					p.ReportTextf(e.Lastmod, "<lastmod> %s is later than the snapshot's %s=%q; a snapshot cannot hold a state the resource reached afterwards", fmtTime(lm.Time), a.Name.Local, a.Value)
				}
			})
		},
	}
	ruleClosedIndex = &Rule{
		ID: "RS410", Name: "closed-index-parts", Severity: Error, Spec: specChangeIndex,
		Doc: "A closed change index (with until) has only closed parts, ending no later than the index.",
		Run: func(p *Pass) {
			d := p.Doc
			if (d.Kind != ChangeListIndex && d.Kind != ChangeDumpIndex) || d.MD == nil {
				return
			}
			until, ua, ok := p.timeOf(d.MD, "until")
			if !ok {
				return
			}
			p.OnEntry(func(e *Entry) {
				if e.MD == nil || !e.MD.Has("from") {
					return
				}
				pu, pua, ok := p.timeOf(e.MD, "until")
				switch {
				case pua == nil:
					p.Reportf(e.MD, "the index is closed (until=%q) but this part is open (no until); a closed index only groups closed parts", ua.Value)
				case ok && pu.After(until):
					p.ReportAttrf(e.MD, pua, "until=%q is after the index's until=%q", pua.Value, ua.Value)
				}
			})
		},
	}
	rulePartsWithinIndex = &Rule{
		ID: "RS411", Name: "parts-within-index", Severity: Warning, Spec: specResListIndex,
		Doc: "The snapshot times of a Resource List Index's or Resource Dump's parts lie within the index's at and completed.",
		Run: func(p *Pass) {
			d := p.Doc
			if (d.Kind != ResourceListIndex && d.Kind != ResourceDump && d.Kind != ResourceDumpIndex) || d.MD == nil {
				return
			}
			at, _, okAt := p.timeOf(d.MD, "at")
			completed, _, okC := p.timeOf(d.MD, "completed")
			p.OnEntry(func(e *Entry) {
				if e.MD == nil {
					return
				}
				if t, a, ok := p.timeOf(e.MD, "at"); ok && okAt && t.Before(at) {
					p.ReportAttrf(e.MD, a, "at=%q is before the document's at=%q; a part's snapshot cannot start before the whole snapshot", a.Value, d.MD.Value("at"))
				}
				if t, a, ok := p.timeOf(e.MD, "completed"); ok && okC && t.After(completed) {
					p.ReportAttrf(e.MD, a, "completed=%q is after the document's completed=%q; the whole snapshot completes when its last part does", a.Value, d.MD.Value("completed"))
				}
			})
		},
	}
)

// chronological reports entries whose datetime is earlier than that of
// the latest preceding entry that has one.
func chronological(p *Pass, order string) {
	var last time.Time
	var lastN int
	p.OnEntry(func(e *Entry) {
		if e.MD == nil {
			return
		}
		t, a, ok := p.timeOf(e.MD, "datetime")
		if !ok {
			return
		}
		if lastN > 0 && t.Before(last) {
			p.ReportAttrf(e.MD, a, "datetime=%q is earlier than that of entry %d (%s); entries must be in forward chronological order, %s", a.Value, lastN, fmtTime(last), order)
			return
		}
		last, lastN = t, e.N
	})
}

// periodOrder reports parts whose from is earlier than the preceding part's.
func periodOrder(p *Pass) {
	var last time.Time
	var lastN int
	p.OnEntry(func(e *Entry) {
		if e.MD == nil {
			return
		}
		t, a, ok := p.timeOf(e.MD, "from")
		if !ok {
			return
		}
		if lastN > 0 && t.Before(last) {
			p.ReportAttrf(e.MD, a, "from=%q is earlier than that of entry %d (%s); parts must be listed in forward chronological order", a.Value, lastN, fmtTime(last))
			return
		}
		last, lastN = t, e.N
	})
}
