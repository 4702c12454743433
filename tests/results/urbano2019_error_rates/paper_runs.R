# The runs the paper keeps of a collection and measure, as its R/common.R
# (github.com/julian-urbano/sigir2019-statistical) removes duplicates and the bottom runs;
# sourced by simireff_margins.R and simireff_p10.R.
removeBottom <- function(dat, p = .25) { mu <- colMeans(dat); dat[, mu >= quantile(mu, p)] }
removeDuplicates <- function(dat, tol = 1e-5) {
  toremove <- integer(0)
  for (i in seq(ncol(dat) - 1)) for (j in seq(i + 1, ncol(dat)))
    if (all(abs(dat[, i] - dat[, j]) <= tol)) toremove <- c(toremove, j)
  if (length(toremove) > 0) dat[-toremove] else dat
}
