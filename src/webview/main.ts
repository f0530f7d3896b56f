// Entry of the panel's browser bundle.
import './app';
