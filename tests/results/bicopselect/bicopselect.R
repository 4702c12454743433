# R's VineCopula (2.6.1, built from github.com/tnagler/VineCopula at 7829d3b; its
# BiCopSelect, BiCopEst and BiCopPDF are those of 2.1.8, the CRAN release of late
# 2018, but for the bounds of one-parameter families) on the pairs of pairs.csv, as
# Urbano, Lima & Hanjalic (2019) call it (R/03-bicops.R of
# github.com/julian-urbano/sigir2019-statistical):
#   BiCopSelect(u[,1], u[,2], selectioncrit = "AIC")
# and, per pair, both Tawn types at each rotation BiCopSelect may consider (BiCopEst).
# Usage: Rscript bicopselect.R pairs.csv > r_bicopselect.csv
library(VineCopula)
d <- read.csv(commandArgs(TRUE)[1])
out <- NULL
for (p in unique(d$pair)) {
  u <- as.matrix(d[d$pair == p, c("u1", "u2")])
  sel <- BiCopSelect(u[, 1], u[, 2], selectioncrit = "AIC")
  out <- rbind(out, data.frame(pair = p, what = "select", family = sel$family,
                               par = sel$par, par2 = sel$par2, loglik = sel$logLik,
                               aic = sel$AIC, tau = sel$emptau))
  tau <- sel$emptau
  fams <- if (tau > 0) c(104, 114, 204, 214) else c(124, 134, 224, 234)
  for (f in fams) {
    e <- BiCopEst(u[, 1], u[, 2], family = f, method = "mle")
    ll <- sum(log(BiCopPDF(u[, 1], u[, 2], f, e$par, e$par2)))
    out <- rbind(out, data.frame(pair = p, what = "tawn", family = f, par = e$par,
                                 par2 = e$par2, loglik = ll, aic = -2 * ll + 4, tau = tau))
  }
}
write.csv(out, stdout(), row.names = FALSE)
