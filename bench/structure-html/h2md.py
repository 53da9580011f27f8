"""Reference Markdown from a page's own HTML markup, in Docling's conventions (bench/structure-html/make.sh).

    python3 h2md.py PAGE.html > PAGE.md

Headings h1-h6 become `#`..`######`, list items `- ` or their number ("1.", "a.", "ii.", "가." by the list's class), nested
lists indented two spaces a level, tables their HTML (score.py reads HTML tables), preformatted text its lines, every
other block its text; an element of class "foot" (a slide's footer) is left out, as running furniture is. Needs lxml.
"""
import sys, re
from lxml import html
BLOCK={'p','div','h1','h2','h3','h4','h5','h6','ul','ol','li','table','pre','body','thead','tbody','tr','td','th','br'}
def txt(e):
    for br in e.iter('br'): br.tail = ' ' + (br.tail or '')
    return re.sub(r'\s+',' ', e.text_content()).strip()
def inline_only(e):
    return not any(c.tag in BLOCK - {'br'} for c in e.iter() if c is not e)
out=[]
def lst(e, depth):
    n=1
    for li in e:
        if li.tag!='li': continue
        own=(li.text or '')+''.join(html.tostring(c,encoding='unicode',method='text') if c.tag not in ('ul','ol') else '' for c in li)
        own=re.sub(r'\s+',' ',own).strip()
        cls=e.get('class') or ''
        mark = (chr(96+n)+'.' if cls=='a' else '가나다라마바사'[n-1]+'.' if cls=='k' else ['i','ii','iii','iv','v','vi'][n-1]+'.' if cls=='r' else f'{n}.') if e.tag=='ol' else '-'
        out.append('  '*depth + f'{mark} {own}'); n+=1
        for c in li:
            if c.tag in ('ul','ol'): lst(c, depth+1)
def walk(e):
    t=e.tag
    if t in ('style','head') or (e.get('class') or '')=='foot': return
    if re.fullmatch(r'h[1-6]',t): out.append(''); out.append('#'*int(t[1])+' '+txt(e)); out.append(''); return
    if t in ('ul','ol'): out.append(''); lst(e,0); out.append(''); return
    if t=='table':
        for x in e.iter():
            for a in ('class','style'): x.attrib.pop(a,None)
            if x.tag in ('td','th'):
                s=txt(x)
                for c in list(x): x.remove(c)
                x.text=s
        out.append(''); out.append(re.sub(r'\s*\n\s*','',html.tostring(e,encoding='unicode'))); out.append(''); return
    if t=='pre': out.append(''); out.extend(e.text_content().strip().split('\n')); out.append(''); return
    if inline_only(e):
        # split at <br>
        parts=[]; cur=e.text or ''
        for c in e:
            if c.tag=='br': parts.append(cur); cur=c.tail or ''
            else: cur+=html.tostring(c,encoding='unicode',method='text')
        parts.append(cur)
        for p in parts:
            p=re.sub(r'\s+',' ',p).strip()
            if p: out.append(''); out.append(p); out.append('')
        return
    if e.text and e.text.strip(): out.append(''); out.append(e.text.strip()); out.append('')
    for c in e:
        walk(c)
        if c.tail and c.tail.strip(): out.append(''); out.append(c.tail.strip()); out.append('')
doc=html.parse(sys.argv[1]).getroot()
walk(doc.find('body'))
print(re.sub(r'\n{3,}','\n\n','\n'.join(out)).strip())
