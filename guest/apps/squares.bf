Squares 0 to 225 as bytes: adds successive odd numbers
cell0 counts 16 rounds; cell1 is the next odd number; cell2 the square; cell3 scratch
++++++++++++++++ >+ <[ >>. <[->+>+<<] >>[-<<+>>] <<++ <- ]
