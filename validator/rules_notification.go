package validator

import (
	"sort"
	"strings"
)

// Change Notification and Framework Notification payloads, and the
// advertisement of their channels.
var (
	ruleCNUntil = &Rule{
		ID: "RN101", Name: "change-notification-until", Severity: Error, Spec: specCN,
		Doc: "A change notification's <rs:md> has both from and until: consecutive notifications cover consecutive periods.",
		Run: func(p *Pass) {
			d := p.Doc
			if d.Kind == ChangeNotification && d.MD != nil && !d.MD.Has("until") {
				p.Reportf(d.MD, "a change notification must have an until attribute as well as from, so that Destinations can check they received every notification")
			}
		},
	}
	ruleCNOrder = &Rule{
		ID: "RN102", Name: "change-notification-order", Severity: Error, Spec: specCN,
		Doc: "The entries of a change notification are in forward chronological order of their datetime.",
		Run: func(p *Pass) {
			if p.Doc.Kind == ChangeNotification {
				chronological(p, "the least recent change first")
			}
		},
	}
	ruleFNCapability = &Rule{
		ID: "RN103", Name: "framework-notification-capability", Severity: Error, Spec: specFN,
		Doc: "Each entry of a framework notification says, in capability, which framework document changed.",
		Run: func(p *Pass) {
			if p.Doc.Kind != FrameworkNotification {
				return
			}
			p.OnEntry(func(e *Entry) {
				if e.MD != nil && !e.MD.Has("capability") {
					p.Reportf(e.MD, "the <rs:md> of a framework notification entry must have a capability attribute saying what the changed document is (resourcelist, changelist, capabilitylist, …)")
				}
			})
		},
	}
	ruleFNCapabilityValue = &Rule{
		ID: "RN104", Name: "framework-notification-capability-value", Severity: Warning, Spec: specFN,
		Doc: "Framework notifications are about Resource Lists, Resource Dumps, Change Lists, Change Dumps, Capability Lists and Source Descriptions.",
		Run: func(p *Pass) {
			if p.Doc.Kind != FrameworkNotification {
				return
			}
			p.OnEntry(func(e *Entry) {
				c := e.MD.Attr("capability")
				if c == nil {
					return
				}
				if _, ok := frameworkNotificationEntries[strings.TrimSpace(c.Value)]; !ok {
					p.ReportAttrf(e.MD, c, "capability %q is not a framework document framework notifications report on (%s)", c.Value, strings.Join(sortedKeys(frameworkNotificationEntries), ", "))
				}
			})
		},
	}
	ruleFNChangeType = &Rule{
		ID: "RN105", Name: "framework-notification-change-type", Severity: Warning, Spec: specFNTypes,
		Doc: "The change types of framework notifications are those of Table 2 (e.g. Resource Dumps are only created).",
		Run: func(p *Pass) {
			if p.Doc.Kind != FrameworkNotification {
				return
			}
			p.OnEntry(func(e *Entry) {
				c := strings.TrimSpace(e.MD.Value("capability"))
				ch := e.MD.Attr("change")
				allowed, ok := frameworkNotificationEntries[c]
				if ch == nil || !ok {
					return
				}
				if v := strings.TrimSpace(ch.Value); Capabilities[c] != nil && !allowed[v] && (v == "created" || v == "updated" || v == "deleted") {
					p.ReportAttrf(e.MD, ch, "Table 2 of the Framework Notification specification lists no %q notification for a %s (only %s)", v, Capabilities[c].Name, strings.Join(sortedKeys(allowed), ", "))
				}
			})
		},
	}
	ruleChannelHub = &Rule{
		ID: "RN106", Name: "channel-hub", Severity: Error, Spec: specCNAdvertise,
		Doc: "A notification channel advertised in a Capability List has an <rs:ln rel=\"hub\"> giving its WebSub hub.",
		Run: func(p *Pass) {
			if p.Doc.Kind != CapabilityList {
				return
			}
			p.OnEntry(func(e *Entry) {
				c := strings.TrimSpace(e.MD.Value("capability"))
				if (c == "change-notification" || c == "framework-notification") && len(e.LinksRel("hub")) == 0 {
					p.Reportf(&e.Element, "the %s channel %s must have an <rs:ln rel=\"hub\" href=\"…\"> giving the URI of its WebSub hub", c, e.LocText())
				}
			})
		},
	}
)

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
