;; Per-cell sums of the gradient magnitude G = sqrt(dx^2 + dy^2) of a float32 grey image, the hot
;; loop of cellGradientStats (textureGain.ts), with two pixels per f64x2 instruction.
;;
;; dx = I[x+1] - I[x-1], dy = I[y+1] - I[y-1] (undivided central differences; neighbours outside
;; the image clamped to the border). Every value is a float32 promoted to f64 (exact), and each
;; lane does the scalar arithmetic of the JavaScript loop: f64 sub, mul, add, sqrt, each rounded
;; once (WebAssembly has no fused multiply-add here), so the bits are those of the scalar loop.
;; The per-cell sums then add a row's G values one by one, cell by cell, left to right, image row
;; after image row: the order of the scalar loop.
;;
;; Build: `npm run gen:wasm` (scripts/gen-wasm.js) turns this file into gradientKernelBinary.ts;
;; test/harness/correction/gradientKernel.test.ts checks that the committed binary is this file's.
(module
  (memory (export "memory") 1)

  ;; G of pixel (x, y) with every neighbour clamped (the border pixels).
  (func $gClamped (param $grey i32) (param $w i32) (param $h i32) (param $x i32) (param $y i32) (result f64)
    (local $xm i32) (local $xp i32) (local $ym i32) (local $yp i32) (local $dx f64) (local $dy f64)
    (local.set $xm (select (i32.sub (local.get $x) (i32.const 1)) (i32.const 0) (i32.gt_s (local.get $x) (i32.const 0))))
    (local.set $xp (select (i32.add (local.get $x) (i32.const 1)) (i32.sub (local.get $w) (i32.const 1))
      (i32.lt_s (local.get $x) (i32.sub (local.get $w) (i32.const 1)))))
    (local.set $ym (select (i32.sub (local.get $y) (i32.const 1)) (i32.const 0) (i32.gt_s (local.get $y) (i32.const 0))))
    (local.set $yp (select (i32.add (local.get $y) (i32.const 1)) (i32.sub (local.get $h) (i32.const 1))
      (i32.lt_s (local.get $y) (i32.sub (local.get $h) (i32.const 1)))))
    (local.set $dx (f64.sub
      (f64.promote_f32 (f32.load (i32.add (local.get $grey) (i32.shl (i32.add (i32.mul (local.get $y) (local.get $w)) (local.get $xp)) (i32.const 2)))))
      (f64.promote_f32 (f32.load (i32.add (local.get $grey) (i32.shl (i32.add (i32.mul (local.get $y) (local.get $w)) (local.get $xm)) (i32.const 2)))))))
    (local.set $dy (f64.sub
      (f64.promote_f32 (f32.load (i32.add (local.get $grey) (i32.shl (i32.add (i32.mul (local.get $yp) (local.get $w)) (local.get $x)) (i32.const 2)))))
      (f64.promote_f32 (f32.load (i32.add (local.get $grey) (i32.shl (i32.add (i32.mul (local.get $ym) (local.get $w)) (local.get $x)) (i32.const 2)))))))
    (f64.sqrt (f64.add (f64.mul (local.get $dx) (local.get $dx)) (f64.mul (local.get $dy) (local.get $dy)))))

  ;; G of row y into the f64 row buffer at $row (width values).
  (func $gRow (param $grey i32) (param $w i32) (param $h i32) (param $y i32) (param $row i32)
    (local $x i32) (local $c i32) (local $u i32) (local $d i32) (local $dx v128) (local $dy v128)
    ;; byte offsets of the rows y, y - 1 and y + 1 (clamped)
    (local.set $c (i32.add (local.get $grey) (i32.shl (i32.mul (local.get $y) (local.get $w)) (i32.const 2))))
    (local.set $u (i32.add (local.get $grey) (i32.shl (i32.mul
      (select (i32.sub (local.get $y) (i32.const 1)) (i32.const 0) (i32.gt_s (local.get $y) (i32.const 0))) (local.get $w)) (i32.const 2))))
    (local.set $d (i32.add (local.get $grey) (i32.shl (i32.mul
      (select (i32.add (local.get $y) (i32.const 1)) (i32.sub (local.get $h) (i32.const 1)) (i32.lt_s (local.get $y) (i32.sub (local.get $h) (i32.const 1))))
      (local.get $w)) (i32.const 2))))
    (f64.store (local.get $row) (call $gClamped (local.get $grey) (local.get $w) (local.get $h) (i32.const 0) (local.get $y)))
    ;; inner pixels x = 1 .. w - 2, two at a time while x + 1 <= w - 2
    (local.set $x (i32.const 1))
    (block $done
      (loop $pairs
        (br_if $done (i32.gt_s (i32.add (local.get $x) (i32.const 1)) (i32.sub (local.get $w) (i32.const 2))))
        (local.set $dx (f64x2.sub
          (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $c) (i32.shl (i32.add (local.get $x) (i32.const 1)) (i32.const 2)))))
          (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $c) (i32.shl (i32.sub (local.get $x) (i32.const 1)) (i32.const 2)))))))
        (local.set $dy (f64x2.sub
          (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $d) (i32.shl (local.get $x) (i32.const 2)))))
          (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $u) (i32.shl (local.get $x) (i32.const 2)))))))
        (v128.store (i32.add (local.get $row) (i32.shl (local.get $x) (i32.const 3)))
          (f64x2.sqrt (f64x2.add (f64x2.mul (local.get $dx) (local.get $dx)) (f64x2.mul (local.get $dy) (local.get $dy)))))
        (local.set $x (i32.add (local.get $x) (i32.const 2)))
        (br $pairs)))
    ;; the last pixels (an odd inner one, then x = w - 1), clamped where needed
    (block $end
      (loop $rest
        (br_if $end (i32.ge_s (local.get $x) (local.get $w)))
        (f64.store (i32.add (local.get $row) (i32.shl (local.get $x) (i32.const 3)))
          (call $gClamped (local.get $grey) (local.get $w) (local.get $h) (local.get $x) (local.get $y)))
        (local.set $x (i32.add (local.get $x) (i32.const 1)))
        (br $rest))))

  ;; For every cell (cx, cy) of cellPx x cellPx pixels: acc[2c] = sum of G, acc[2c + 1] = sum of G^2
  ;; when $squares is non-zero (else 0), c = cy * (w / cellPx) + cx, f64 at $acc. $row: w f64 of scratch.
  (func (export "cellSums") (param $grey i32) (param $w i32) (param $h i32) (param $cellPx i32) (param $squares i32) (param $row i32) (param $acc i32)
    (local $y i32) (local $gw i32) (local $cy i32) (local $cx i32) (local $x i32) (local $end i32) (local $p i32)
    (local $s f64) (local $ss f64) (local $g f64)
    (local.set $gw (i32.div_u (local.get $w) (local.get $cellPx)))
    (memory.fill (local.get $acc) (i32.const 0)
      (i32.shl (i32.mul (local.get $gw) (i32.div_u (local.get $h) (local.get $cellPx))) (i32.const 4)))
    (local.set $y (i32.const 0))
    (block $rowsDone
      (loop $rows
        (br_if $rowsDone (i32.ge_s (local.get $y) (local.get $h)))
        (call $gRow (local.get $grey) (local.get $w) (local.get $h) (local.get $y) (local.get $row))
        (local.set $cy (i32.div_u (local.get $y) (local.get $cellPx)))
        (local.set $cx (i32.const 0))
        (local.set $x (i32.const 0))
        (block $cellsDone
          (loop $cells
            (br_if $cellsDone (i32.ge_s (local.get $cx) (local.get $gw)))
            (local.set $p (i32.add (local.get $acc) (i32.shl (i32.add (i32.mul (local.get $cy) (local.get $gw)) (local.get $cx)) (i32.const 4))))
            (local.set $s (f64.load (local.get $p)))
            (local.set $ss (f64.load offset=8 (local.get $p)))
            (local.set $end (i32.add (local.get $x) (local.get $cellPx)))
            (block $pxDone
              (loop $px
                (br_if $pxDone (i32.ge_s (local.get $x) (local.get $end)))
                (local.set $g (f64.load (i32.add (local.get $row) (i32.shl (local.get $x) (i32.const 3)))))
                (local.set $s (f64.add (local.get $s) (local.get $g)))
                (if (local.get $squares) (then (local.set $ss (f64.add (local.get $ss) (f64.mul (local.get $g) (local.get $g))))))
                (local.set $x (i32.add (local.get $x) (i32.const 1)))
                (br $px)))
            (f64.store (local.get $p) (local.get $s))
            (f64.store offset=8 (local.get $p) (local.get $ss))
            (local.set $cx (i32.add (local.get $cx) (i32.const 1)))
            (br $cells)))
        (local.set $y (i32.add (local.get $y) (i32.const 1)))
        (br $rows))))
)
