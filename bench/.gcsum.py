import sys, re
phase=None; st={}
for line in open(sys.argv[1]):
    if line.startswith('PHASE'): phase=line.split()[1]; continue
    if line.startswith('END'): print(line.strip()); phase=None; continue
    if phase is None: continue
    m=re.search(r'ms: (Scavenge|Mark-Compact|Minor Mark-Sweep)\S* ([\d.]+) \(([\d.]+)\) -> ([\d.]+) \(([\d.]+)\) MB, (?:pooled: [\d.]+ MB, )?([\d.]+) / ([\d.]+) ms(?:\s+\(\+ ([\d.]+) ms)?', line)
    if not m: continue
    k=(phase,m.group(1)); d=st.setdefault(k,[0,0.0,0.0,0.0]); d[0]+=1; d[1]+=float(m.group(6)); d[2]+=float(m.group(2)); d[3]+=float(m.group(8) or 0)
for k,v in sorted(st.items()): print(k, 'count',v[0],'pause ms %.0f'%v[1], 'incr ms %.0f'%v[3], 'avg heap before %.0f'%(v[2]/v[0]))
