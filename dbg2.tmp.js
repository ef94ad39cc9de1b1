const {loadScenarioFile, makePrivilegedState}=require('/work/main/dist/sim');
const {simEnvironmentFactory}=require('/work/main/dist/src/harness/data/simEnvironment.js');
const {PlannerPilot}=require('/work/main/dist/src/harness/eval/PlannerPilot.js');
const {ACTIONS}=require('/work/main/dist/src/harness/actions.js');
const {makeNavigation}=require('/work/main/dist/src/harness/data/DroneEnvironment.js');
const {nearThreatCells}=require('/work/main/dist/src/harness/eval/CellLabels.js');
const {initBackend}=require('/work/main/dist/src/harness/backend');
const {loadTeacher}=require('/work/main/dist/src/harness/modelfile');
(async()=>{ await initBackend();
const det=(await loadTeacher(process.argv[4]||'/tmp/det1250/teacher')).model;
const sc=loadScenarioFile('default');
const seed=+process.argv[2]; const split=process.argv[3]||'val';
const env=simEnvironmentFactory(sc,split,{controlPeriod_s:0.25})(seed,{perturbed:false});
const pilot=new PlannerPilot({type:'detector',detector:det});
const n=env.width*env.height; const truth={mask:new Uint8Array(n),visibleMask:new Uint8Array(n),depth:new Float32Array(n)};
const rgb=new Uint8Array(n*3); const st=new Float32Array(16); const nav=makeNavigation(); const log=[]; const priv=makePrivilegedState();
for(let step=0;step<1000;step++){ env.render(rgb,truth.mask,truth); env.sensorState(st); const a=pilot.act(rgb,st,env);
 env.navigation(nav); const near=nearThreatCells(truth.visibleMask,truth.depth,{width:256,height:256,cell_px:8},nav.forwardSpeed_m_s);
 const thr=pilot.lastThreat; let tp=0,fn=0,fp=0; let maxc=0; for(let i=0;i<thr.length;i++){ const p=thr[i]>0.5; if(p&&near[i]) tp++; else if(!p&&near[i]) fn++; else if(p&&!near[i]) fp++; const r=Math.floor(i/32),c=i%32; if(r>=11&&r<=17&&c>=12&&c<=19) maxc=Math.max(maxc,thr[i]); }
 const p=env.sim.privileged(priv);
 log.push(`t=${env.time_s.toFixed(2)} alt=${nav.altitude_m.toFixed(1)} pitch=${(nav.pitch_rad*57.3).toFixed(0)} act=${ACTIONS[a]} tp=${tp} fn=${fn} fp=${fp} centreMax=${maxc.toFixed(2)} path=${p.pathDistance_m.toFixed(1)} cls=${p.pathClass} el=${(p.pathElevation_rad*57.3).toFixed(0)} az=${(p.pathAzimuth_rad*57.3).toFixed(0)} nearest=${p.nearestDistance_m.toFixed(2)}/${p.nearestClass}`);
 const ev=env.step(a); if(ev.type!=='running'){ log.push(JSON.stringify(ev)); break; } }
console.log(log.slice(-14).join('\n'));
})();
