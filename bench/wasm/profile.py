# Summarises a Node CPU profile of a Go WebAssembly module: self time by
# package and by function.
import json,glob,collections,sys
d=sys.argv[1] if len(sys.argv)>1 else 'bench/out/prof'
f=glob.glob(d+'/*.cpuprofile')[0]
p=json.load(open(f))
nodes={n['id']:n for n in p['nodes']}
self=collections.Counter()
for s,d in zip(p['samples'],p['timeDeltas']):
    self[nodes[s]['callFrame']['functionName']]+=d
tot=sum(self.values())
# group by package
pkg=collections.Counter()
for fn,t in self.items():
    k=fn.split('.')[0] if '.' in fn else fn
    k=k.replace('github.com_rscheck_rscheck_','')
    pkg[k]+=t
print("total",round(tot/1000))
print({k:round(v/1000) for k,v in pkg.most_common(12)})
for fn,t in self.most_common(int(sys.argv[2]) if len(sys.argv)>2 else 40):
    print(f"{t/1000:8.0f}ms {100*t/tot:5.1f}% {fn.replace('github.com_rscheck_rscheck_','')}")
