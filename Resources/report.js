(function(){
var body=document.body;
window.addEventListener('error',function(){body.setAttribute('data-script','error')});
function plotBox(g){return g.querySelector('.tl-plot').getBoundingClientRect();}
function pts(g){return g.querySelectorAll('.tl-pts > g');}
function nearestIndex(g,clientX){
  var r=plotBox(g),t0=+g.getAttribute('data-t0'),t1=+g.getAttribute('data-t1');
  if(!r.width)return -1;
  var t=t0+(clientX-r.left)/r.width*(t1-t0),best=-1,bestD=Infinity;
  pts(g).forEach(function(p,i){var d=Math.abs(+p.getAttribute('data-t')-t);if(d<bestD){bestD=d;best=i;}});
  return best;
}
function xOf(g,p){
  var rect=g.querySelector('.tl-plot'),t0=+g.getAttribute('data-t0'),t1=+g.getAttribute('data-t1');
  return +rect.getAttribute('x')+(+p.getAttribute('data-t')-t0)/(t1-t0)*(+rect.getAttribute('width'));
}
function hide(fig){
  fig.querySelectorAll('.tl-cursor,.tl-brush').forEach(function(c){c.setAttribute('visibility','hidden');});
}
function readout(fig,text){var o=fig.querySelector('.readout');o.textContent=text==null?o.getAttribute('data-hint'):text;}
function show(fig,g,i){
  hide(fig);
  if(!g||i<0){readout(fig,null);return;}
  var p=pts(g)[i],x=xOf(g,p),c=g.querySelector('.tl-cursor');
  c.setAttribute('x1',x);c.setAttribute('x2',x);c.setAttribute('visibility','visible');
  g.setAttribute('data-i',i);
  readout(fig,p.getAttribute('data-r'));
}
function number(v){
  var t=(Math.round(v*10)/10).toFixed(1).replace(/\.0$/,''),neg=t.charAt(0)==='-';if(neg)t=t.slice(1);
  var parts=t.split('.');parts[0]=parts[0].replace(/\B(?=(\d{3})+(?!\d))/g,'\u2009');
  return (neg?'\u2212':'')+parts.join('.');
}
function summary(g,a,b){
  var list=pts(g),lo=Math.min(a,b),hi=Math.max(a,b),names=(g.getAttribute('data-m')||'').split('|');
  var first=list[lo].getAttribute('data-r').split(':')[0],last=list[hi].getAttribute('data-r').split(':')[0];
  var said=[];
  names.forEach(function(m,k){
    var name=m.split(':')[0],unit=m.split(':').slice(1).join(':'),u=unit&&unit!==name?' '+unit:'';
    var vals=[];
    for(var i=lo;i<=hi;i++){var v=(list[i].getAttribute('data-v')||'').split('|')[k];if(v!==''&&v!=null)vals.push(+v);}
    if(!vals.length){said.push(name+': unknown');return;}
    var sum=vals.reduce(function(s,v){return s+v;},0),change=vals[vals.length-1]-vals[0];
    said.push(name+': '+(g.getAttribute('data-sum')==='0'?'':'total '+number(sum)+u+', ')+'mean '+number(sum/vals.length)+u
      +', change '+(change>0?'+':'')+number(change)+u);
  });
  return first+' \u2013 '+last+' ('+(hi-lo+1)+' points): '+said.join('; ');
}
function brush(fig,g,a,b){
  show(fig,g,b);
  if(a===b||!g.getAttribute('data-m'))return;
  var list=pts(g),x0=xOf(g,list[Math.min(a,b)]),x1=xOf(g,list[Math.max(a,b)]),r=g.querySelector('.tl-brush');
  r.setAttribute('x',x0-3);r.setAttribute('width',x1-x0+6);r.setAttribute('visibility','visible');
  g.setAttribute('data-a',a);
  readout(fig,summary(g,a,b));
}
function hit(fig,clientX,clientY){
  var found=null,gap=Infinity;
  fig.querySelectorAll('.tl-hover').forEach(function(g){
    var r=plotBox(g),d=clientY<r.top?r.top-clientY:clientY>r.bottom?clientY-r.bottom:0;
    if(r.width&&clientX>=r.left-12&&clientX<=r.right+12&&d<gap&&d<=12){gap=d;found=g;}});
  return found;
}
var figures=[];
document.querySelectorAll('figure.chart').forEach(function(fig){
  if(!fig.querySelector('.tl-hover')||!fig.querySelector('.readout'))return;
  figures.push(fig);
  var o=fig.querySelector('.readout');o.setAttribute('data-hint',o.textContent);
  // A wide and a phone drawing: each listens, and only the one shown has a box to hit.
  fig.querySelectorAll('svg').forEach(function(svg){
    var drag=null;
    svg.addEventListener('pointerdown',function(e){
      var g=hit(fig,e.clientX,e.clientY);if(!g)return;
      drag={g:g,a:nearestIndex(g,e.clientX)};show(fig,g,drag.a);});
    svg.addEventListener('pointermove',function(e){
      if(drag){brush(fig,drag.g,drag.a,nearestIndex(drag.g,e.clientX));return;}
      var g=hit(fig,e.clientX,e.clientY);show(fig,g,g?nearestIndex(g,e.clientX):-1);});
    svg.addEventListener('pointerup',function(){drag=null;});
    svg.addEventListener('pointerleave',function(){if(!drag)show(fig,null,-1);});
  });
  fig.querySelectorAll('.tl-hover').forEach(function(g){
    var n=pts(g).length;if(!n)return;
    g.setAttribute('tabindex','0');g.setAttribute('role','slider');
    g.setAttribute('aria-label',(g.ownerSVGElement.querySelector('title')||{}).textContent+': arrow keys read each point');
    g.addEventListener('focus',function(){if(!g.hasAttribute('data-i'))show(fig,g,n-1);});
    g.addEventListener('blur',function(){hide(fig);readout(fig,null);g.removeAttribute('data-i');});
    g.addEventListener('keydown',function(e){
      var i=+(g.getAttribute('data-i')||n-1),j=i;
      if(e.key==='ArrowLeft')j=Math.max(0,i-1);else if(e.key==='ArrowRight')j=Math.min(n-1,i+1);
      else if(e.key==='Home')j=0;else if(e.key==='End')j=n-1;
      else if(e.key==='Escape'){g.removeAttribute('data-a');show(fig,g,i);e.preventDefault();return;}
      else return;
      e.preventDefault();
      if(e.shiftKey){var a=g.hasAttribute('data-a')?+g.getAttribute('data-a'):i;brush(fig,g,a,j);}
      else{g.removeAttribute('data-a');show(fig,g,j);}
    });
  });
});
function showPeriod(fig,btn){
  var id=btn.getAttribute('data-period');
  fig.querySelectorAll('.tl-body-period').forEach(function(g){
    if(g.getAttribute('data-period')===id)g.removeAttribute('display');else g.setAttribute('display','none');});
  fig.querySelectorAll('.periods button').forEach(function(o){o.setAttribute('aria-pressed',o===btn?'true':'false');});
}
document.querySelectorAll('figure.body').forEach(function(fig){
  fig.querySelectorAll('.periods button').forEach(function(btn){
    btn.addEventListener('click',function(){showPeriod(fig,btn);});});
});
function sortBy(table,th){
  var down=th.getAttribute('aria-sort')==='ascending',col=[].indexOf.call(th.parentNode.children,th);
  var numeric=th.getAttribute('data-kind')==='number',tb=table.tBodies[0],rows=[].slice.call(tb.rows);
  table.querySelectorAll('thead th').forEach(function(o){o.removeAttribute('aria-sort');});
  th.setAttribute('aria-sort',down?'descending':'ascending');
  rows.sort(function(a,b){
    var x=a.cells[col].getAttribute('data-sort'),y=b.cells[col].getAttribute('data-sort');
    var c=numeric?(+x)-(+y):(x<y?-1:x>y?1:0);return down?-c:c;});
  rows.forEach(function(r){tb.appendChild(r);});
}
document.querySelectorAll('table.sortable').forEach(function(table){
  table.querySelectorAll('thead th').forEach(function(th){
    th.querySelector('button').addEventListener('click',function(){sortBy(table,th);});});
});
if(location.hash==='#selftest'){
  var failures=[];
  function fail(what){if(failures.length<20)failures.push(what);}
  var main=document.querySelector('main');
  if(main.hasAttribute('data-asof')){
    var asof=+main.getAttribute('data-asof'),day=+main.getAttribute('data-asof-day');
    document.querySelectorAll('svg.tl-chart').forEach(function(svg){
      var bound=svg.classList.contains('tl-cohort-series')?day:asof;
      svg.querySelectorAll('.tl-pts > g[data-t]').forEach(function(p){
        if(+p.getAttribute('data-t')>bound)fail('after as-of: '+p.getAttribute('data-r'));});
    });
  }
  document.querySelectorAll('table.sortable').forEach(function(table){
    var heads=table.querySelectorAll('thead th'),n=table.tBodies[0].rows.length;
    heads.forEach(function(th,col){
      [1,2].forEach(function(){
        th.querySelector('button').click();
        var keys=[].map.call(table.tBodies[0].rows,function(r){return r.cells[col].getAttribute('data-sort');});
        var down=th.getAttribute('aria-sort')==='descending',numeric=th.getAttribute('data-kind')==='number';
        for(var i=1;i<keys.length;i++){var c=numeric?(+keys[i])-(+keys[i-1]):(keys[i]<keys[i-1]?-1:keys[i]>keys[i-1]?1:0);if(down?c>0:c<0){fail('sort '+th.textContent);break;}}
        if(keys.length!==n)fail('sort lost rows');
      });
    });
    heads[0].querySelector('button').click();
  });
  document.querySelectorAll('figure.body').forEach(function(fig){
    var buttons=fig.querySelectorAll('.periods button'),first=fig.querySelector('[aria-pressed=true]');
    buttons.forEach(function(btn){
      btn.click();
      var shown=[].filter.call(fig.querySelectorAll('.tl-body-period'),function(g){return g.getBoundingClientRect().width>0;});
      if(shown.length!==1||shown[0].getAttribute('data-period')!==btn.getAttribute('data-period'))fail('period '+btn.textContent+': '+shown.length+' shown');
    });
    if(first)first.click();
  });
  figures.forEach(function(fig){
    fig.querySelectorAll('.tl-hover').forEach(function(g){
      var list=pts(g);if(!list.length||!plotBox(g).width)return;
      var r=plotBox(g),t0=+g.getAttribute('data-t0'),t1=+g.getAttribute('data-t1');
      [list[0],list[list.length-1]].forEach(function(p){
        var x=r.left+(+p.getAttribute('data-t')-t0)/(t1-t0)*r.width;
        show(fig,hit(fig,x,r.top+r.height/2),nearestIndex(g,x));
        if(fig.querySelector('.readout').textContent!==p.getAttribute('data-r'))fail('pointer: '+p.getAttribute('data-r'));
      });
      g.focus();
      g.dispatchEvent(new KeyboardEvent('keydown',{key:'End',bubbles:true}));
      if(fig.querySelector('.readout').textContent!==list[list.length-1].getAttribute('data-r'))fail('End key');
      if(list.length>1){
        g.dispatchEvent(new KeyboardEvent('keydown',{key:'ArrowLeft',bubbles:true}));
        if(fig.querySelector('.readout').textContent!==list[list.length-2].getAttribute('data-r'))fail('ArrowLeft');
      }
      g.blur();
      if(g.getAttribute('data-m')&&list.length>1){
        r=plotBox(g);  // focusing scrolled the page
        var svg=g.ownerSVGElement,y=r.top+r.height/2,xa=r.left+(+list[0].getAttribute('data-t')-t0)/(t1-t0)*r.width;
        var xb=r.left+(+list[list.length-1].getAttribute('data-t')-t0)/(t1-t0)*r.width;
        svg.dispatchEvent(new PointerEvent('pointerdown',{clientX:xa,clientY:y,bubbles:true}));
        svg.dispatchEvent(new PointerEvent('pointermove',{clientX:xb,clientY:y,bubbles:true}));
        svg.dispatchEvent(new PointerEvent('pointerup',{clientX:xb,clientY:y,bubbles:true}));
        if(fig.querySelector('.readout').textContent.indexOf('mean ')<0)fail('brush: '+fig.querySelector('.readout').textContent);
        svg.dispatchEvent(new PointerEvent('pointerleave',{bubbles:true}));
        if(fig.querySelector('.readout').textContent!==fig.querySelector('.readout').getAttribute('data-hint'))fail('leave');
      }
    });
  });
  document.querySelectorAll('.tl-tick,.tl-ring-label').forEach(function(t){
    if(!t.getClientRects().length)return;
    var shown=parseFloat(t.textContent.replace(/[\u2009\s]/g,'').replace('\u2212','-'));
    if(Math.abs(shown-(+t.getAttribute('data-value')))>1e-9)fail('label '+t.textContent+' at '+t.getAttribute('data-value'));
  });
  document.querySelectorAll('svg.tl-chart').forEach(function(svg){
    if(!svg.getClientRects().length)return;
    svg.querySelectorAll('[role=img]').forEach(function(m){
      if(!(m.getAttribute('aria-label')||'').trim())fail('mark without text: '+m.tagName);});
    if(svg.querySelector('.tl-bars rect')&&!svg.querySelector('.tl-bars rect[aria-label]'))fail('bars without text');
  });
  document.querySelectorAll('svg text').forEach(function(t){
    var m=t.getScreenCTM(),size=parseFloat(getComputedStyle(t).fontSize)*(m?Math.abs(m.a):1);
    if(t.getClientRects().length&&size<10.95)fail('text '+size.toFixed(1)+'px: '+t.textContent.slice(0,30));
  });
  document.querySelectorAll('section').forEach(function(s){
    var box=s.getBoundingClientRect();
    s.querySelectorAll('svg,table,h1,h2,p,figure,figcaption,.scroll').forEach(function(e){
      if(e.closest('.scroll')&&e.closest('.scroll')!==e)return;
      var r=e.getBoundingClientRect();
      if(r.width&&(r.left<box.left-1||r.right>box.right+1))fail('overflow: '+e.tagName+' '+Math.round(r.right-box.right)+'px');
    });
  });
  if(performance.getEntriesByType('resource').length)fail('fetched '+performance.getEntriesByType('resource')[0].name);
  body.setAttribute('data-dark',matchMedia('(prefers-color-scheme: dark)').matches?'yes':'no');
  body.setAttribute('data-selftest',failures.length?'failed: '+failures.join(' | '):'ok');
}
if(body.getAttribute('data-script')==='pending')body.setAttribute('data-script','ok');
})();
