; @name max_subarray
; @description Kadane's algorithm: R0 = largest sum of a contiguous run among R2 words at 0
; @init R2=9
; @mem-size 16
; @mem 0: -2 1 -3 4 -1 2 1 -5 4
; @expect R0=6 halted=1
;
; best ending here = max(x, best ending at the previous element + x); the
; answer is the best of those. Here the run is 4 -1 2 1.

        LOAD R0, [R7]       ; best overall (R7 = 0: element 0)
        MOV R3, R0          ; best ending here
        MOV R1, 1
loop:   CMP R1, R2
        JGE done
        LOAD R4, [R1]
        ADD R3, R3, R4      ; extend the current run ...
        CMP R3, R4
        JGE extended
        MOV R3, R4          ; ... unless starting afresh at x is better
extended:
        CMP R3, R0
        JLE next
        MOV R0, R3
next:   INC R1
        JMP loop
done:   HALT
